import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/load-config';
import { pageSettings, pageSettingsMeta } from './page-settings';

/** What the console's page tells the browser before anyone signs in: the admin key's place, the portal's branding. */
describe('pageSettings', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://app@db:5432/gateway',
    JWT_SECRET: randomBytes(48).toString('base64'),
    ADMIN_API_KEY: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PUBLIC_URL: 'https://gateway.example.com',
  };

  it('gives the portal\'s branding when any is set, and nothing of it otherwise', () => {
    expect(pageSettings(loadConfig(production))).toEqual({});
    const branded = loadConfig({ ...production, PORTAL_PLATFORM_NAME: 'Acme Cloud', PORTAL_PRIMARY_COLOR: '#6D28D9' });
    expect(pageSettings(branded)).toEqual({ portal: { platformName: 'Acme Cloud', primaryColor: '#6d28d9' } });
    // Outside production the sign-in page's hint comes along.
    const dataDir = mkdtempSync(join(tmpdir(), 'agw-page-settings-'));
    const development = loadConfig({ DATA_DIR: dataDir, PORTAL_RETURN_URL: 'https://app.acme.example/' });
    expect(pageSettings(development)).toEqual({ adminKey: { file: join(dataDir, 'secrets.json') }, portal: { returnUrl: 'https://app.acme.example/' } });
  });

  it('writes them into the meta element so that no name can end the attribute or open a tag', () => {
    const config = loadConfig({ ...production, PORTAL_PLATFORM_NAME: 'Acme "><script>alert(1)</script> & Co' });
    const meta = pageSettingsMeta(pageSettings(config));
    expect(meta).toBe(
      '<meta name="gateway-settings" content="{&quot;portal&quot;:{&quot;platformName&quot;:&quot;Acme \\&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co&quot;}}" />',
    );
    expect(meta.match(/"/g)).toHaveLength(4); // the two attributes' quotes, and no other
  });
});
