import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfig } from './load-config';
import { contrastWithWhite, logoSource } from './portal-config';

/** The tenant portal's branding (PORTAL_* variables, issue 30), as loadConfig reads and refuses it. */
describe('loadConfig: the portal\'s branding', () => {
  const base = () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'agw-portal-config-')) });
  const production = () => ({
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://app@db:5432/gateway',
    JWT_SECRET: randomBytes(48).toString('base64'),
    ADMIN_API_KEY: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'https://gateway.example.com',
  });
  const refusal = (env: NodeJS.ProcessEnv): string[] => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.message.split('\n');
      throw error;
    }
    throw new Error('loadConfig accepted the configuration');
  };

  it('has none by default', () => {
    expect(loadConfig(base()).console.portal).toEqual({});
  });

  it('reads each variable, trimming the name, normalising the URLs and the colour', () => {
    const config = loadConfig({
      ...base(),
      PORTAL_PLATFORM_NAME: '  Acme Cloud ',
      PORTAL_RETURN_URL: 'https://app.acme.example/integrations',
      PORTAL_LOGO_URL: 'https://cdn.acme.example/logo.svg?v=2',
      PORTAL_PRIMARY_COLOR: '#0B5FFF',
    });
    expect(config.console.portal).toEqual({
      platformName: 'Acme Cloud',
      returnUrl: 'https://app.acme.example/integrations',
      logoUrl: 'https://cdn.acme.example/logo.svg?v=2',
      primaryColor: '#0b5fff',
    });
    expect(loadConfig({ ...base(), PORTAL_PRIMARY_COLOR: '#0a8' }).console.portal).toEqual({ primaryColor: '#00aa88' });
    // Outside production a development platform may be plain http.
    expect(loadConfig({ ...base(), PORTAL_RETURN_URL: 'http://localhost:8080/' }).console.portal).toEqual({ returnUrl: 'http://localhost:8080/' });
  });

  it.each([
    ['PORTAL_PLATFORM_NAME', '   ', 'must not be blank'],
    ['PORTAL_PLATFORM_NAME', 'x'.repeat(61), 'must be at most 60 characters'],
    ['PORTAL_PLATFORM_NAME', 'Acme\u202eevil', 'must not hold control or bidi characters'],
    ['PORTAL_RETURN_URL', 'app.acme.example', 'must be an absolute https:// URL, not "app.acme.example"'],
    ['PORTAL_RETURN_URL', 'javascript:alert(1)', 'must be an https:// URL, not "javascript:alert(1)"'],
    ['PORTAL_RETURN_URL', 'https://user:pw@app.acme.example/', 'must not carry a user name or password'],
    ['PORTAL_LOGO_URL', 'data:image/svg+xml,<svg/>', 'must be an https:// URL, not "data:image/svg+xml,<svg/>"'],
    ['PORTAL_LOGO_URL', "https://cdn.acme.example/a;b,c'.svg", 'must not contain ; , \' " or spaces (percent-encode them)'],
    ['PORTAL_PRIMARY_COLOR', 'blue', 'must be a colour as #rrggbb or #rgb, e.g. #0b5fff, not "blue"'],
    ['PORTAL_PRIMARY_COLOR', '#12345', 'must be a colour as #rrggbb or #rgb, e.g. #0b5fff, not "#12345"'],
  ])('refuses %s=%j with one line naming it', (variable, value, problem) => {
    expect(refusal({ ...base(), [variable]: value })).toEqual([`Configuration error: ${variable} ${problem}`]);
  });

  it('refuses plain http in production, for both URLs at once', () => {
    expect(refusal({ ...production(), PORTAL_RETURN_URL: 'http://app.acme.example/', PORTAL_LOGO_URL: 'http://cdn.acme.example/logo.png' })).toEqual([
      'Configuration error: PORTAL_RETURN_URL must be an https:// URL in production, not "http://app.acme.example/"',
      'Configuration error: PORTAL_LOGO_URL must be an https:// URL in production, not "http://cdn.acme.example/logo.png"',
    ]);
    expect(loadConfig({ ...production(), PORTAL_RETURN_URL: 'https://app.acme.example/' }).console.portal).toEqual({ returnUrl: 'https://app.acme.example/' });
  });

  it('accepts a colour too light for text on white, with a warning that says so', () => {
    const config = loadConfig({ ...base(), PORTAL_PRIMARY_COLOR: '#ffd400' });
    expect(config.console.portal.primaryColor).toBe('#ffd400');
    expect(config.warnings).toContain(
      'PORTAL_PRIMARY_COLOR #ffd400 has a contrast of 1.4:1 with white, under the 4.5:1 text needs: the portal\'s links in it will be hard to read',
    );
    expect(loadConfig({ ...base(), PORTAL_PRIMARY_COLOR: '#0b5fff' }).warnings.filter((line) => line.startsWith('PORTAL_'))).toEqual([]);
  });

  it('measures contrast as WCAG 2 does', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastWithWhite('#767676')).toBeCloseTo(4.54, 2);
  });

  it('lets the page load the logo from its exact URL, without its query', () => {
    expect(logoSource('https://cdn.acme.example/brand/logo.svg?v=2#x')).toBe('https://cdn.acme.example/brand/logo.svg');
  });
});
