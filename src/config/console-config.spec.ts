import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfig } from './load-config';

/** The Gateway Management console's variables (issue 13). */
describe('loadConfig: console variables', () => {
  const base = () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-console-config-')) });

  it('defaults to 8-hour sessions, 5-minute portal links, the request\'s origin and no framing', () => {
    expect(loadConfig(base()).console).toEqual({ sessionTtlMs: 480 * 60_000, portalLinkTtlMs: 300_000, publicUrl: undefined, frameAncestors: [], portal: {} });
  });

  it('reads them', () => {
    const config = loadConfig({
      ...base(),
      CONSOLE_SESSION_TTL_MINUTES: '30',
      PORTAL_LINK_TTL_SECONDS: '60',
      PUBLIC_URL: 'https://gateway.example.com',
      CONSOLE_FRAME_ANCESTORS: 'https://app.example.com https://admin.example.com',
    });
    expect(config.console).toEqual({
      sessionTtlMs: 30 * 60_000,
      portalLinkTtlMs: 60_000,
      publicUrl: 'https://gateway.example.com',
      frameAncestors: ['https://app.example.com', 'https://admin.example.com'],
      portal: {},
    });
  });

  it.each([
    ['CONSOLE_SESSION_TTL_MINUTES', '0'],
    ['PORTAL_LINK_TTL_SECONDS', '86400'],
    ['PUBLIC_URL', 'https://gateway.example.com/path'],
    ['PUBLIC_URL', 'gateway.example.com'],
    ['CONSOLE_FRAME_ANCESTORS', "'self'; script-src *"],
  ])('refuses %s=%s with one line naming it', (name, value) => {
    expect(() => loadConfig({ ...base(), [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), [name]: value })).toThrow(new RegExp(`^Configuration error: ${name} `));
  });
});
