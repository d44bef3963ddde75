import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../src/config/app-config';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { keepOnLoopback, launchBrowser, watchPageErrors } from './support/browser';
import { eventually } from './support/eventually';
import { Behaviour, ok, Receiver, status } from './support/receiver';
import { startTestApp, TestApp, testConfig } from './support/test-app';

/**
 * What a newcomer meets in the console on the first hour (issue 30): schema mistakes named as the API names them,
 * errors on the fields they concern, help that links to the served docs, HMAC keys explained, portal pages
 * that say where one is and lead back to the platform, with its branding. One browser for the file.
 *
 * Screenshots (1280 px wide) go to test-results/console-first-hour: look at them.
 */
const SCREENSHOTS = resolve(__dirname, '..', 'test-results', 'console-first-hour');
const VIEWPORT = { width: 1280, height: 800 };
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const hasText = (locator: Locator, text: string) => eventually(async () => expect(await locator.first().textContent()).toContain(text));

/** The platform's own site, on this machine: its logo and the page "Back to Acme Cloud" leads to. */
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="32" viewBox="0 0 96 32"><rect width="32" height="32" rx="8" fill="#6d28d9"/><text x="40" y="22" font-size="16" font-family="sans-serif" fill="#6d28d9">ACME</text></svg>';
const platformSite: Behaviour = (call, response) => {
  if (call.path === '/logo.svg') response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(LOGO);
  else response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Acme Cloud</title><h1>Acme Cloud: integrations</h1>');
};
// Run in the page (this file is compiled without the DOM's types, hence the shapes spelled out).
type Browserish = { document: { getElementById(id: string): { textContent: string } | null }; getComputedStyle(element: unknown): { backgroundColor: string } };
const describedBy = (element: { getAttribute(name: string): string | null }) =>
  (globalThis as unknown as Browserish).document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent;
const loadedWidth = (image: unknown) => ((image as { complete: boolean }).complete ? (image as { naturalWidth: number }).naturalWidth : 0);
const backgroundOf = (element: unknown) => (globalThis as unknown as Browserish).getComputedStyle(element).backgroundColor;
const BRAND = { name: 'Acme Cloud', color: '#6d28d9', rgb: 'rgb(109, 40, 217)' };

describe('console, first hour (issue 30)', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let browser: Browser;
  let operator: BrowserContext;
  let page: Page;
  let errors: string[];
  let outside: string[];
  let tenant: TestTenant;
  let platform: Receiver;

  beforeAll(async () => {
    platform = await Receiver.start(platformSite);
    // As a development service whose key was generated into DATA_DIR/secrets.json, branded for a platform.
    const config = await testConfig({
      PORTAL_PLATFORM_NAME: BRAND.name,
      PORTAL_RETURN_URL: platform.url('/integrations'),
      PORTAL_LOGO_URL: platform.url('/logo.svg'),
      PORTAL_PRIMARY_COLOR: BRAND.color,
    });
    testApp = await startTestApp({ config: new AppConfig({ ...config, adminApiKeyFile: join(config.dataDir, 'secrets.json') }) });
    receiver = await Receiver.start(ok);
    browser = await launchBrowser();
    operator = await browser.newContext({ viewport: VIEWPORT, baseURL: testApp.baseUrl, reducedMotion: 'reduce' });
    operator.setDefaultTimeout(15_000);
    page = await operator.newPage();
    errors = watchPageErrors(page);
    outside = await keepOnLoopback(page);
    tenant = await createTenant(testApp);
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await platform?.stop();
    await testApp?.close();
  });

  afterEach(() => {
    expect(errors.filter((item) => !(item.startsWith('request: ') && item.endsWith('(net::ERR_ABORTED)')))).toEqual([]);
    expect(outside).toEqual([]);
  });

  async function shoot(target: Page, name: string): Promise<void> {
    await target.evaluate('window.scrollTo(0, 0)');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await target.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  it('says on the sign-in page where the development admin key is, also after a wrong one, and signs in with it', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Sign in to Gateway Management' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/sign-in'); // GET / led here
    const hint = page.getByTestId('admin-key-location');
    await hasText(hint, `This service runs outside production: its key is ADMIN_API_KEY in ${join(testApp.config.dataDir, 'secrets.json')}, on the machine it runs on.`);
    await page.getByLabel(/^Admin API key/).fill('not-the-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await hasText(page.getByRole('alert'), 'Invalid admin API key');
    expect(await hint.isVisible()).toBe(true);
    await shoot(page, 'sign-in-wrong-key-hint');
    errors.length = 0; // the browser logs the refused sign-in (401)
    await page.getByLabel(/^Admin API key/).fill(testApp.config.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
  });

  it('names schema mistakes in the editor in the very words of the API, and sends nothing while there are any', async () => {
    const schema = { type: 'object', properties: { city: { type: 'strng' }, units: { enum: ['c', 'f'] } }, require: ['city'], required: ['unit'] };
    const refused = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(), { json_schema: schema }) });
    expect(refused.status).toBe(400);
    const apiWords = (refused.body.details as string).split('; ').map((part) => part.replace(/^json_schema[^:]*: /, ''));
    expect(apiWords).toEqual([
      '"strng" is not a JSON Schema type (did you mean "string"?)',
      'unknown keyword "require" (did you mean "required"?)',
      '"unit" is required but not among the properties (did you mean "units"?)',
    ]);

    await page.goto(`/console/tenants/${tenant.tenantId}/actions/new-action`);
    await page.getByRole('heading', { name: 'Register an action' }).waitFor();
    const calls = receiver.calls.length;
    await page.getByLabel('JSON Schema of the parameters').fill(JSON.stringify(schema, null, 2));
    const problems = page.getByTestId('schema-problems');
    await hasText(problems, '3 problems in this schema');
    const listed = await problems.getByRole('listitem').allTextContents();
    expect(listed).toEqual([`/properties/city/type: ${apiWords[0]}`, `(schema): ${apiWords[1]}`, `/required: ${apiWords[2]}`]);
    await eventually(async () => expect(await page.getByRole('button', { name: 'Register action' }).isDisabled()).toBe(true));
    await shoot(page, 'schema-mistakes');
    expect(receiver.calls.length).toBe(calls);
    expect((await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/actions`)).body.actions).toEqual([]);
  });

  it('shows the service\'s refusal under the fields it names, with a summary naming them, and drops a field\'s once it is edited', async () => {
    const body = actionBody('ftp://hooks.example/weather', { description: '' });
    const refused = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body });
    expect(refused.status).toBe(400);
    // The API's own words, part by part: what each field must show.
    const parts = Object.fromEntries((refused.body.details as string).split('; ').map((part) => [part.slice(0, part.indexOf(':')), part.slice(part.indexOf(':') + 2)]));
    expect(Object.keys(parts).sort()).toEqual(['description', 'webhook_url']);

    await page.goto(`/console/tenants/${tenant.tenantId}/actions/new-action`);
    await page.getByRole('heading', { name: 'Register an action' }).waitFor();
    await page.getByLabel(/^Name/).fill(body.name);
    await page.getByLabel(/^Webhook URL/).fill(body.webhook_url);
    await page.getByRole('button', { name: 'Register action' }).click();
    const summary = page.getByTestId('form-error');
    await hasText(summary, 'Check the fields Description and Webhook URL: the service\'s reason is written under each.');
    expect(await page.getByLabel(/^Description/).getAttribute('aria-invalid')).toBe('true');
    await hasText(page.locator('.mantine-InputWrapper-error', { hasText: parts.description }), parts.description);
    await hasText(page.locator('.mantine-InputWrapper-error', { hasText: parts.webhook_url }), parts.webhook_url);
    // Nothing of it in the summary: each reason is said once, where it belongs.
    expect(await summary.textContent()).not.toContain(parts.webhook_url);
    await shoot(page, 'action-form-field-errors');

    // Editing a field takes its (maybe outdated) reason away; the other stays.
    await page.getByLabel(/^Webhook URL/).fill(receiver.url());
    await eventually(async () => expect(await page.locator('.mantine-InputWrapper-error').allTextContents()).toEqual([parts.description]));
    errors.length = 0; // the browser logs the refused registration (400)
  });

  it('ties a failed registration test to the webhook URL and a taken name to the name', async () => {
    const failing = await Receiver.start(status(500));
    try {
      const taken = actionBody(receiver.url());
      expect((await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: taken })).status).toBe(201);
      await page.goto(`/console/tenants/${tenant.tenantId}/actions/new-action`);
      await page.getByRole('heading', { name: 'Register an action' }).waitFor();
      // The name is checked before the registration test: a taken one is refused first.
      await page.getByLabel(/^Name/).fill(taken.name);
      await page.getByLabel(/^Description/).fill('Looks up the weather');
      await page.getByLabel(/^Webhook URL/).fill(failing.url());
      await page.getByRole('button', { name: 'Register action' }).click();
      await hasText(page.locator('.mantine-InputWrapper-error'), 'an action with this name already exists');
      expect(await page.getByLabel(/^Name/).getAttribute('aria-invalid')).toBe('true');
      await hasText(page.getByTestId('form-error'), 'Check the field Name');

      await page.getByLabel(/^Name/).fill(`${taken.name}_2`);
      await page.getByRole('button', { name: 'Register action' }).click();
      await hasText(page.locator('.mantine-InputWrapper-error'), 'action validation failed: webhook endpoint returned status 500');
      expect(await page.getByLabel(/^Webhook URL/).getAttribute('aria-invalid')).toBe('true');
      await hasText(page.getByTestId('form-error'), 'Check the field Webhook URL');
      await shoot(page, 'action-form-registration-test-failed');
      errors.length = 0; // the refusals (400, 409)
    } finally {
      await failing.stop();
    }
  });

  it('shows a refused tenant name and API token name under their fields', async () => {
    await page.goto('/console/tenants');
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    const apiWords = (await admin(testApp, 'POST', '/tenants', { name: '   ' })).body.details.replace(/^name: /, '');
    await page.getByLabel("New tenant's name").fill('   ');
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await hasText(page.locator('.mantine-InputWrapper-error'), apiWords);
    await hasText(page.getByTestId('form-error'), "Check the field New tenant's name");
    // The button stays in line with the input when a reason appears under it.
    errors.length = 0; // the refusal (400)
    const centre = async (locator: Locator) => {
      const box = (await locator.boundingBox())!;
      return Math.round(box.y + box.height / 2);
    };
    expect(Math.abs((await centre(page.getByLabel("New tenant's name"))) - (await centre(page.getByRole('button', { name: 'Create tenant' }))))).toBeLessThanOrEqual(1);
    // The form alone: the tenant list below it grows with every test run on a shared database.
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.locator('form').first().screenshot({ path: join(SCREENSHOTS, 'tenant-name-refused.png') });

    await page.goto(`/console/tenants/${tenant.tenantId}/api-tokens`);
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByLabel(/^Token name/).fill('   ');
    await page.getByRole('button', { name: 'Create token' }).click();
    await hasText(page.locator('.mantine-InputWrapper-error'), apiWords);
    expect(Math.abs((await centre(page.getByLabel(/^Expires/))) - (await centre(page.getByLabel(/^Token name/))))).toBeLessThanOrEqual(1);
    expect(Math.abs((await centre(page.getByLabel(/^Expires/))) - (await centre(page.getByRole('button', { name: 'Create token' }))))).toBeLessThanOrEqual(1);
    await page.locator('form').first().screenshot({ path: join(SCREENSHOTS, 'api-token-name-refused.png') });
    errors.length = 0;
  });

  it('explains a new HMAC key in place, links to the API reference the service serves, and says what the key id is', async () => {
    const fresh = await createTenant(testApp, { hmacKey: false });
    await page.goto(`/console/tenants/${fresh.tenantId}/hmac-keys`);
    await page.getByRole('button', { name: 'Create key' }).click();
    const panel = page.getByText('Give it to the receivers of this tenant\'s actions');
    await panel.waitFor();
    expect(await page.getByText('docs/receivers.md').count()).toBe(0);
    const reference = page.getByTestId('api-reference-link');
    expect(await reference.getAttribute('href')).toBe('/api/v1/gateway/docs');
    // The link leads to a page this service serves (Swagger UI), not to a file of a repository.
    const served = await page.request.get('/api/v1/gateway/docs');
    expect([served.status(), (await served.text()).includes('swagger-ui')]).toEqual([200, true]);

    await page.getByRole('button', { name: 'Rotate key' }).waitFor();
    await shoot(page, 'hmac-key-created');
    const help = page.getByRole('button', { name: 'What is the key id?' });
    await help.hover();
    const tooltip = page.getByRole('tooltip');
    await hasText(tooltip, 'Receivers never see it');
    expect(await help.evaluate(describedBy)).toContain('It is not the key and not secret');
    await shoot(page, 'hmac-key-id-explained');
  });

  describe('the portal, branded for the platform', () => {
    async function person(width = 1280): Promise<{ context: BrowserContext; page: Page; errors: string[]; outside: string[] }> {
      const context = await browser.newContext({ viewport: { width, height: 800 }, baseURL: testApp.baseUrl, reducedMotion: 'reduce' });
      context.setDefaultTimeout(15_000);
      const opened = await context.newPage();
      return { context, page: opened, errors: watchPageErrors(opened), outside: await keepOnLoopback(opened) };
    }
    const newLink = async (tenantId: string) => (await admin(testApp, 'POST', `/tenants/${tenantId}/portal-links`)).body.portal_link;
    const tenantName = async (tenantId: string) => (await admin(testApp, 'GET', `/tenants/${tenantId}`)).body.tenant.name as string;
    const unused = async (token: string) => (await testApp.app.get(DataSource).query('SELECT redeemed_at FROM portal_links WHERE token_hash = $1', [sha256(token)]))[0].redeemed_at === null;
    async function expectAccessible(target: Page): Promise<void> {
      const results = await new AxeBuilder({ page: target }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);
    }

    it('wears the platform\'s logo, name and colour, and leads back to the platform', async () => {
      const developer = await person();
      try {
        await developer.page.goto((await newLink(tenant.tenantId)).url);
        await developer.page.getByRole('heading', { name: await tenantName(tenant.tenantId), level: 1 }).waitFor();
        const header = developer.page.locator('header');
        await hasText(header, BRAND.name);
        // The logo came from the platform's host: the page's CSP admits its URL.
        const logo = developer.page.getByTestId('platform-logo');
        await eventually(async () => expect(await logo.evaluate(loadedWidth)).toBeGreaterThan(0));
        const back = developer.page.getByTestId('back-to-platform');
        expect([await back.textContent(), await back.getAttribute('href')]).toEqual([`Back to ${BRAND.name}`, platform.url('/integrations')]);
        const filled = developer.page.getByRole('link', { name: 'Register an action' }).or(developer.page.getByRole('button', { name: 'Register an action' })).first();
        expect(await filled.evaluate(backgroundOf)).toBe(BRAND.rgb);
        await expectAccessible(developer.page);
        await shoot(developer.page, 'portal-branded');

        await back.click();
        await developer.page.getByRole('heading', { name: 'Acme Cloud: integrations' }).waitFor();
        expect(developer.page.url()).toBe(platform.url('/integrations'));
        expect(developer.errors).toEqual([]);
        expect(developer.outside).toEqual([]);
      } finally {
        await developer.context.close();
      }
    });

    it('keeps the header in its bar on a phone, with the way back as an icon', async () => {
      const developer = await person(390);
      try {
        await developer.page.goto((await newLink(tenant.tenantId)).url);
        await developer.page.getByRole('heading', { name: await tenantName(tenant.tenantId), level: 1 }).waitFor();
        const back = developer.page.getByRole('link', { name: `Back to ${BRAND.name}` });
        expect(await back.isVisible()).toBe(true);
        expect(await developer.page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
        // Everything in the header's bar is inside the screen (the bar hides what runs out of it).
        for (const control of [back, developer.page.getByRole('button', { name: 'Sign out' }), developer.page.getByTestId('platform-logo')]) {
          const box = (await control.boundingBox())!;
          expect([box.x >= 0, box.x + box.width <= 390]).toEqual([true, true]);
        }
        await shoot(developer.page, 'portal-branded-phone');
      } finally {
        await developer.context.close();
      }
    });

    it('says once, under the right title, that a used link cannot be used, and leads back to the platform', async () => {
      const link = await newLink(tenant.tenantId);
      const first = await person();
      try {
        await first.page.goto(link.url);
        await first.page.getByRole('heading', { name: await tenantName(tenant.tenantId), level: 1 }).waitFor();
      } finally {
        await first.context.close();
      }
      const latecomer = await person();
      try {
        await latecomer.page.goto(link.url);
        await latecomer.page.getByRole('heading', { name: 'This portal link cannot be used', level: 1 }).waitFor();
        const text = await latecomer.page.getByTestId('portal-link-unusable').textContent();
        expect(text).toContain(`Go back to ${BRAND.name}`);
        // Said once: no alert repeating the title, and not the service's terse "Invalid portal link" beside it.
        expect(await latecomer.page.getByRole('alert').count()).toBe(0);
        expect(await latecomer.page.getByText('Invalid portal link').count()).toBe(0);
        expect(await latecomer.page.getByTestId('back-to-platform').getAttribute('href')).toBe(platform.url('/integrations'));
        await expectAccessible(latecomer.page);
        await shoot(latecomer.page, 'portal-link-used');
        expect(latecomer.errors.filter((line) => !/status of 401/.test(line))).toEqual([]);
      } finally {
        await latecomer.context.close();
      }
    });

    it('asks a signed-in operator before a portal link replaces the session, naming both; cancelling keeps it and leaves the link unused', async () => {
      const link = await newLink(tenant.tenantId);
      const name = await tenantName(tenant.tenantId);
      await page.goto('/console/tenants');
      await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();

      await page.goto(link.url);
      const question = page.getByTestId('replace-session-question');
      await hasText(question, `You are signed in as the operator. Open the portal of tenant ${name} instead? Your operator session will end.`);
      await page.getByRole('heading', { name: 'You are already signed in', level: 1 }).waitFor();
      expect(page.url()).not.toContain('agwp_');
      expect(await unused(link.token)).toBe(true);
      await shoot(page, 'portal-link-replace-operator');

      await page.getByRole('button', { name: 'Keep the operator session' }).click();
      await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
      expect(await unused(link.token)).toBe(true);
      expect((await page.request.get('/api/v1/admin/session')).status()).toBe(200);
      expect((await (await page.request.get('/api/v1/admin/session')).json()).session.kind).toBe('operator');

      // Confirmed this time: the operator session ends, the tenant's opens.
      await page.goto(link.url);
      await page.getByRole('button', { name: 'Open that portal' }).click();
      await page.getByRole('heading', { name, level: 1 }).waitFor();
      expect(await unused(link.token)).toBe(false);
      expect((await (await page.request.get('/api/v1/admin/session')).json()).session).toMatchObject({ kind: 'tenant', tenant_id: tenant.tenantId });
      errors.length = 0; // the refused redemption (409)
    });

    it('asks a developer in one tenant\'s portal before a link of another tenant switches them, naming both tenants', async () => {
      const other = await createTenant(testApp);
      const [here, there] = [await tenantName(tenant.tenantId), await tenantName(other.tenantId)];
      const developer = await person();
      try {
        await developer.page.goto((await newLink(tenant.tenantId)).url);
        await developer.page.getByRole('heading', { name: here, level: 1 }).waitFor();
        const link = await newLink(other.tenantId);
        await developer.page.goto(link.url);
        await hasText(
          developer.page.getByTestId('replace-session-question'),
          `You are signed in to the portal of tenant ${here}. Open the portal of tenant ${there} instead? Your session in the other portal will end.`,
        );
        await expectAccessible(developer.page);
        await shoot(developer.page, 'portal-link-replace-tenant');
        await developer.page.getByRole('button', { name: 'Stay in the current portal' }).click();
        await developer.page.getByRole('heading', { name: here, level: 1 }).waitFor();
        expect(await unused(link.token)).toBe(true);

        // A new link of the same tenant (the platform's page visited again) opens without a question.
        await developer.page.goto((await newLink(tenant.tenantId)).url);
        await developer.page.getByRole('heading', { name: here, level: 1 }).waitFor();
        // The refused redemption (409), and a read the browser dropped as the page moved on.
        expect(developer.errors.filter((line) => !/status of 409/.test(line) && !line.endsWith('(net::ERR_ABORTED)'))).toEqual([]);
      } finally {
        await developer.context.close();
      }
    });

    it('leads back to the platform from the page a signed-out developer sees', async () => {
      const developer = await person();
      try {
        await developer.page.goto((await newLink(tenant.tenantId)).url);
        await developer.page.getByRole('heading', { name: await tenantName(tenant.tenantId), level: 1 }).waitFor();
        await developer.page.getByRole('button', { name: 'Sign out' }).click();
        await developer.page.getByRole('heading', { name: 'You have signed out of the portal', level: 1 }).waitFor();
        await hasText(developer.page.getByTestId('portal-ended'), `To come back, open a new portal link from ${BRAND.name}.`);
        expect(await developer.page.getByTestId('back-to-platform').getAttribute('href')).toBe(platform.url('/integrations'));
        await shoot(developer.page, 'portal-signed-out');
      } finally {
        await developer.context.close();
      }
    });
  });
});
