import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { AppConfig } from '../src/config/app-config';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { keepOnLoopback, launchBrowser, watchPageErrors } from './support/browser';
import { eventually } from './support/eventually';
import { ok, Receiver } from './support/receiver';
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

const hasText = (locator: Locator, text: string) => eventually(async () => expect(await locator.first().textContent()).toContain(text));

describe('console, first hour (issue 30)', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let browser: Browser;
  let operator: BrowserContext;
  let page: Page;
  let errors: string[];
  let outside: string[];
  let tenant: TestTenant;

  beforeAll(async () => {
    // As a development service whose key was generated into DATA_DIR/secrets.json.
    const config = await testConfig();
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
});
