import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser, BrowserContext, Locator, Page, Request, Route } from 'playwright-core';
import { DataSource } from 'typeorm';
import { actionBody, admin, createTenant, gateway } from './support/factories';
import { keepOnLoopback, launchBrowser, watchPageErrors } from './support/browser';
import { expectAccessible, layoutProblems } from './support/console-page';
import { eventually } from './support/eventually';
import { call } from './support/http';
import { ok, Receiver, status } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';
import { SameOriginJsonGuard } from '../src/console-auth/same-origin.guard';

/**
 * The Gateway Management console as a person uses it, in Debian's Chromium: operator sign-in, tenants, API
 * tokens, HMAC keys, actions (registered, refused, tried), the execution log, portal links and their tenant
 * sessions, sign-out. One browser for the file; each person has a browser context of their own.
 *
 * Screenshots (1280 px wide) go to test-results/console, or to docs/console with `npm run docs:screenshots`.
 */
const SCREENSHOTS = resolve(process.env.CONSOLE_SCREENSHOTS_DIR ?? resolve(__dirname, '..', 'test-results', 'console'));
const VIEWPORT = { width: 1280, height: 800 };
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Waits for `locator`; when it never shows, says where the page was and what it showed (and keeps a screenshot). */
async function visible(locator: Locator): Promise<void> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout: 15_000 });
  } catch (error) {
    const page = locator.page();
    const shown = await page.locator('body').innerText({ timeout: 1_000 }).catch(() => '(unreadable)');
    mkdirSync(SCREENSHOTS, { recursive: true });
    const path = join(SCREENSHOTS, `not-visible-${Date.now()}.png`);
    await page.screenshot({ path, fullPage: true }).catch(() => undefined);
    throw new Error(`${(error as Error).message}\nthe page was ${page.url()}, showing:\n${shown.slice(0, 600)}\nscreenshot: ${path}`, { cause: error });
  }
}
const hasText = (locator: Locator, text: string) => eventually(async () => expect(await locator.first().textContent()).toContain(text));
const hasCount = (locator: Locator, count: number) => eventually(async () => expect(await locator.count()).toBe(count));

describe('Gateway Management console (in a browser)', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let failing: Receiver;
  let browser: Browser;
  let operator: BrowserContext;
  let page: Page;
  let errors: string[];
  let outside: string[];
  const state: { tenantId?: string; tenantName?: string; actionName?: string; portalUrl?: string; otherTenantId?: string } = {};

  beforeAll(async () => {
    testApp = await startTestApp();
    receiver = await Receiver.start(ok);
    failing = await Receiver.start(status(500));
    browser = await launchBrowser();
    ({ context: operator, page, errors, outside } = await person());
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await failing?.stop();
    await testApp?.close();
  });

  afterEach(() => {
    // Nothing the page reports as broken (a CSP violation is a console error), and no request off this machine.
    expect(broken(errors)).toEqual([]);
    expect(outside).toEqual([]);
  });

  async function person(): Promise<{ context: BrowserContext; page: Page; errors: string[]; outside: string[] }> {
    const context = await browser.newContext({ viewport: VIEWPORT, baseURL: testApp.baseUrl, reducedMotion: 'reduce' });
    context.setDefaultTimeout(15_000);
    const opened = await context.newPage();
    return { context, page: opened, errors: watchPageErrors(opened), outside: await keepOnLoopback(opened) };
  }

  const console$ = (path = '') => `/console${path}`;

  /**
   * The page's error list without the requests the browser itself dropped because the test moved on (a favicon
   * still loading at the next navigation: net::ERR_ABORTED), which are no failure of the page.
   */
  const broken = (seen: string[]) => seen.filter((item) => !(item.startsWith('request: ') && item.endsWith('(net::ERR_ABORTED)')));

  /** The status the service answers a fetch made by the page itself (with its cookie). */
  const statusFromPage = (target: Page, path: string) =>
    target.evaluate(`fetch(${JSON.stringify(path)}).then(async (response) => { await response.text(); return response.status; })`);

  /** The errors are only the browser's log lines for answers with these statuses (expected refusals); clears them. */
  function expectOnlyRefusals(seen: string[], ...statuses: number[]): void {
    const pattern = new RegExp(`status of (${statuses.join('|')}) `);
    expect(broken(seen).filter((error) => !pattern.test(error))).toEqual([]);
    seen.length = 0;
  }
  /** A screenshot from the top of the page (the header is fixed: scrolled, it would sit in the middle), without toasts. */
  async function shoot(target: Page, name: string): Promise<void> {
    for (const dismiss of await target.getByRole('button', { name: 'Dismiss' }).all()) await dismiss.click();
    await target.evaluate('window.scrollTo(0, 0)');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await target.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  it('serves the console with a strict Content-Security-Policy and no inline script', async () => {
    const response = await call(testApp.baseUrl, 'GET', '/console/tenants/anything');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
    expect(policy).toContain("frame-ancestors 'none'");
    const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
    expect(nonce).toBeDefined();
    expect(response.text).toContain(`<meta name="csp-nonce" content="${nonce}" />`);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    // Every script has a src on the service itself; no inline handlers.
    const scripts = [...response.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/console\/assets\/[^"]+\.js"/);
      expect(body.trim()).toBe('');
    }
    expect(response.text).not.toMatch(/\son[a-z]+=/i);

    // Another request, another nonce; assets are long-lived; a missing asset is a 404, never the page.
    const again = await call(testApp.baseUrl, 'GET', '/console');
    expect(again.headers.get('content-security-policy')).not.toBe(policy);
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(response.text)![1];
    const asset = await call(testApp.baseUrl, 'GET', script);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    const missing = await call(testApp.baseUrl, 'GET', '/console/assets/nope.js');
    expect([missing.status, missing.body]).toEqual([404, { error: 'Not found' }]);
  });

  it('refuses a wrong admin key, then signs the operator in with a session cookie kept out of reach of scripts', async () => {
    await page.goto(console$('/'));
    await visible(page.getByRole('heading', { name: 'Sign in to Gateway Management' }));
    await expectAccessible(page);
    await shoot(page, 'sign-in');

    await page.getByLabel(/^Admin API key/).fill('not-the-admin-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await hasText(page.getByRole('alert'), 'Invalid admin API key');
    await shoot(page, 'sign-in-wrong-key');
    expectOnlyRefusals(errors, 401); // the browser logs the refused sign-in

    await page.getByLabel(/^Admin API key/).fill(testApp.config.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByRole('heading', { name: 'Tenants', level: 1 }));
    expect(new URL(page.url()).pathname).toBe('/console/tenants');

    const [cookie] = await operator.cookies();
    expect(cookie).toMatchObject({ name: 'agw_console_session', httpOnly: true, sameSite: 'Strict', path: '/api/v1/admin' });
    const stored = await page.evaluate('({ cookie: document.cookie, local: JSON.stringify(localStorage), session: JSON.stringify(sessionStorage) })');
    expect(stored).toEqual({ cookie: '', local: '{}', session: '{}' });
  });

  it('creates a tenant and opens it, with an empty state that says how to register an action', async () => {
    state.tenantName = `Acme ${Date.now()}`;
    await page.getByLabel("New tenant's name").fill(state.tenantName);
    await page.getByRole('button', { name: 'Create tenant' }).click();
    await visible(page.getByRole('heading', { name: state.tenantName, level: 1 }));
    state.tenantId = /\/console\/tenants\/([0-9a-f-]{36})\/actions$/.exec(page.url())![1];
    expect((await admin(testApp, 'GET', `/tenants/${state.tenantId}`)).body.tenant).toMatchObject({ name: state.tenantName, status: 'active' });

    const empty = page.getByTestId('empty-state');
    await hasText(empty, 'No actions yet');
    await hasText(empty, `curl -X POST ${testApp.baseUrl}/api/v1/gateway/actions`);
    await visible(empty.getByRole('link', { name: 'Register an action' }));
    await expectAccessible(page);
    await shoot(page, 'actions-empty');

    await page.getByRole('link', { name: 'Tenants' }).first().click();
    await visible(page.getByRole('link', { name: state.tenantName }));
    await expectAccessible(page);
    await shoot(page, 'tenants');
    await page.getByRole('link', { name: state.tenantName }).click();
    await visible(page.getByRole('heading', { name: state.tenantName, level: 1 }));
  });

  it('creates an API token, shows its value once with a copy button, and revokes it after confirmation', async () => {
    await page.getByRole('link', { name: 'API tokens' }).click();
    await visible(page.getByText('No API tokens yet'));
    await page.getByLabel('Token name').fill('deploy bot');
    await page.getByRole('button', { name: 'Create token' }).click();

    const secret = page.getByTestId('secret-once');
    await hasText(secret, "Copy it now: you won't see it again.");
    await visible(secret.getByRole('button', { name: 'Copy API token' }));
    const token = (await page.getByTestId('secret-value').textContent())!.trim();
    expect(token).toMatch(/^agw_[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page);
    await shoot(page, 'api-token-created');

    // The token is real: it exchanges for a bearer token.
    const exchanged = await gateway(testApp, 'POST', '/token/exchange', { body: { api_token: token } });
    expect(exchanged.status).toBe(200);

    await page.getByRole('button', { name: 'I have stored it' }).click();
    const row = page.getByTestId('api-token-row').filter({ hasText: 'deploy bot' });
    await hasText(row, token.slice(0, 12));
    await hasText(row, 'active');
    expect(await page.content()).not.toContain(token);
    await page.reload();
    await hasCount(page.getByTestId('api-token-row'), 1);
    expect(await page.content()).not.toContain(token);
    await shoot(page, 'api-tokens');

    await row.getByRole('button', { name: 'Revoke deploy bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “deploy bot”?' });
    await hasText(dialog, 'This cannot be undone.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await hasText(row, 'active');
    await row.getByRole('button', { name: 'Revoke deploy bot' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await hasText(row, 'revoked');
    expect((await gateway(testApp, 'POST', '/token/exchange', { body: { api_token: token } })).status).toBe(401);
  });

  it('creates an HMAC key (shown once) and rotates it: the new key is primary while the old one still signs', async () => {
    await page.getByRole('link', { name: 'HMAC keys' }).click();
    await visible(page.getByText('No HMAC keys yet'));
    await page.getByRole('button', { name: 'Create key' }).click();
    await hasText(page.getByTestId('secret-once'), "you won't see it again");
    const first = (await page.getByTestId('secret-value').textContent())!.trim();
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await page.getByRole('button', { name: 'I have stored it' }).click();

    await page.getByRole('button', { name: 'Rotate key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the HMAC key?' });
    await hasText(dialog, 'keeps signing the webhook-signature header');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Create the new key' }).click();
    await visible(page.getByTestId('secret-once'));
    const second = (await page.getByTestId('secret-value').textContent())!.trim();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    await hasCount(page.getByTestId('hmac-key-row'), 2);
    await visible(page.getByText('2 keys are active'));
    await expectAccessible(page);
    await shoot(page, 'hmac-keys-rotated');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    const keys = (await admin(testApp, 'GET', `/tenants/${state.tenantId}/hmac-keys`)).body.hmac_keys;
    expect(keys.map((key: any) => [key.primary, key.revoked_at])).toEqual([
      [true, null],
      [false, null],
    ]);
  });

  it('registers an action with a JSON editor that shows schema problems before sending', async () => {
    await page.getByRole('link', { name: 'Actions' }).click();
    await page.getByRole('link', { name: 'Register an action' }).first().click();
    await visible(page.getByRole('heading', { name: 'Register an action' }));
    state.actionName = 'get_weather';
    await page.getByLabel('Name').fill(state.actionName);
    await page.getByLabel('Description').fill('Current weather for a city');
    await page.getByLabel('Webhook URL').fill(receiver.url('/weather'));
    const editor = page.getByLabel('JSON Schema of the parameters');
    await editor.fill('{"type":"string","properties":{"city":{"type":"text"}},"required":"city"}');
    const problems = page.getByTestId('schema-problems');
    await hasText(problems, '/type: must be "object"');
    await hasText(problems, '/properties/city/type: "text" is not a JSON Schema type (did you mean "string"?)');
    await hasText(problems, '/required: must be an array of property names, e.g. ["city"], not "city"');
    await eventually(async () => expect(await page.getByRole('button', { name: 'Register action' }).isDisabled()).toBe(true));
    await expectAccessible(page);
    await shoot(page, 'action-form-schema-problems');
    const callsBefore = receiver.calls.length;

    await editor.fill(JSON.stringify({ type: 'object', properties: { city: { type: 'string', description: 'City name' }, units: { type: 'string', enum: ['metric', 'imperial'] } }, required: ['city'] }));
    await visible(page.getByText('Valid JSON Schema'));
    expect(receiver.calls.length).toBe(callsBefore); // nothing was sent while the schema was wrong
    await page.getByRole('button', { name: 'Register action' }).click();

    await visible(page.getByRole('heading', { name: state.actionName, level: 2 }));
    await hasText(page.getByTestId('action-schema'), '"required": [\n    "city"\n  ]');
    const test = JSON.parse(receiver.calls[receiver.calls.length - 1].body);
    expect(test).toMatchObject({ action_name: state.actionName, parameters: {}, test: true });
    await expectAccessible(page);
    await shoot(page, 'action');
  });

  it('shows the spec\'s error text when the webhook answers the registration test with 500, and stores nothing', async () => {
    await page.goto(console$(`/tenants/${state.tenantId}/actions/new-action`));
    await page.getByLabel('Name').fill('broken_hook');
    await page.getByLabel('Description').fill('Its webhook is down');
    await page.getByLabel('Webhook URL').fill(failing.url('/down'));
    await visible(page.getByText('Valid JSON Schema'));
    await page.getByRole('button', { name: 'Register action' }).click();
    const alert = page.getByRole('alert');
    await hasText(alert, 'The service refused this action');
    await hasText(alert, 'Check the field Webhook URL');
    // The spec's text, under the field it concerns.
    await hasText(page.locator('.mantine-InputWrapper-error'), 'action validation failed: webhook endpoint returned status 500');
    expect(await page.getByLabel('Webhook URL').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await shoot(page, 'action-registration-refused');
    expectOnlyRefusals(errors, 400); // the refused registration
    const actions = (await admin(testApp, 'GET', `/tenants/${state.tenantId}/actions`)).body.actions;
    expect(actions.map((action: any) => action.name)).toEqual([state.actionName]);
  });

  it('tries the action through a form generated from its JSON Schema, on the real execute path', async () => {
    await page.goto(console$(`/tenants/${state.tenantId}/actions/${state.actionName}`));
    await page.getByRole('link', { name: 'Try it' }).first().click();
    const form = page.getByTestId('try-form');
    await visible(form.getByLabel('city'));
    await visible(form.getByLabel('units'));

    const callsBefore = receiver.calls.length;
    await form.getByRole('button', { name: 'Run action' }).click();
    await hasText(form, "must have required property 'city'");
    expect(receiver.calls.length).toBe(callsBefore);

    receiver.behaviour = (_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'Sunny, 21 °C', error: '' }));
    };
    await form.getByLabel('city').fill('Oslo');
    await hasText(page.getByTestId('try-request'), '"city": "Oslo"');
    await form.getByRole('button', { name: 'Run action' }).click();
    const outcome = page.getByTestId('try-outcome');
    await hasText(outcome, 'succeeded');
    await hasText(outcome, 'Sunny, 21 °C');
    await hasText(outcome, '1 attempt');
    const sent = receiver.calls[receiver.calls.length - 1];
    expect(JSON.parse(sent.body)).toMatchObject({ action_name: state.actionName, parameters: { city: 'Oslo' } });
    expect(sent.headers['webhook-id']).toBeDefined();
    expect(JSON.parse(sent.body).signature).toMatch(/^[0-9a-f]{64}$/);
    await expectAccessible(page);
    await shoot(page, 'try-it');
  });

  it('shows the execution log with each attempt, filters by status, and follows new executions without a reload', async () => {
    await page.getByRole('link', { name: 'Execution log', exact: true }).click();
    const log = page.getByTestId('execution-log');
    await hasCount(log.getByTestId('execution-row'), 1);
    await hasText(log, 'Sunny, 21 °C');

    // The platform runs the action while the page is open: first try 503, then success (a retry).
    const tenant = await bearerFor(state.tenantId!);
    let calls = 0;
    receiver.behaviour = (_, response) => {
      calls += 1;
      if (calls === 1) response.writeHead(503, { 'content-type': 'application/json' }).end('{}');
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: 'Rain', error: '' }));
    };
    const run = await gateway(testApp, 'POST', `/actions/${state.actionName}/execute`, { token: tenant, body: { parameters: { city: 'Bergen' } } });
    expect(run.body.execution).toMatchObject({ status: 'succeeded', attempts: 2 });
    receiver.behaviour = status(500);
    const failed = await gateway(testApp, 'POST', `/actions/${state.actionName}/execute`, { token: tenant, body: { parameters: { city: 'Tromsø' } } });
    expect(failed.body.execution).toMatchObject({ status: 'failed', attempts: 3, error: 'webhook endpoint returned status 500' });

    await hasCount(log.getByTestId('execution-row'), 3); // no reload: the page polls
    const newest = log.getByTestId('execution-row').first();
    await hasText(newest, 'failed');
    await hasText(newest, 'webhook endpoint returned status 500');
    await newest.getByRole('button', { name: /Attempts of the execution/ }).click();
    const attempts = log.getByTestId('attempts').first();
    await hasCount(attempts.getByTestId('attempt-row'), 3);
    await hasText(attempts.getByTestId('attempt-row').first(), 'webhook endpoint returned status 500');

    const retried = log.getByTestId('execution-row').nth(1);
    await retried.getByRole('button', { name: /Attempts of the execution/ }).click();
    const retriedAttempts = log.getByTestId('attempts').nth(1);
    await hasCount(retriedAttempts.getByTestId('attempt-row'), 2);
    await hasText(retriedAttempts.getByTestId('attempt-row').first(), 'webhook endpoint returned status 503');
    await hasText(retriedAttempts.getByTestId('attempt-row').nth(1), '200');
    await expectAccessible(page);
    await shoot(page, 'execution-log');

    await page.getByText('Failed', { exact: true }).click();
    await hasCount(log.getByTestId('execution-row'), 1);
    await eventually(async () => expect(await log.getByTestId('execution-row').first().getAttribute('data-status')).toBe('failed'));
    await page.getByText('Succeeded', { exact: true }).click();
    await hasCount(log.getByTestId('execution-row'), 2);
    await hasCount(log.locator('[data-testid="execution-row"][data-status="failed"]'), 0);
    receiver.behaviour = ok;
  });

  it('shows a loader, not the other filter\'s rows, until a new filter\'s first answer arrives', async () => {
    await page.goto(console$(`/tenants/${state.tenantId}/actions/${state.actionName}/executions`));
    await visible(page.getByTestId('execution-row'));
    const failedOnly = (url: URL) => url.pathname.endsWith('/executions') && url.searchParams.get('status') === 'failed';
    let release: (() => Promise<void>) | undefined;
    await page.route(failedOnly, async (route) => {
      if (release) return route.fallback(); // only the first read is held; polls after it go through
      const response = await route.fetch();
      release = () => route.fulfill({ response });
    });
    try {
      await page.getByText('Failed', { exact: true }).click();
      await visible(page.getByLabel('Loading executions'));
      expect(await page.getByTestId('execution-row').count()).toBe(0);
      await eventually(async () => expect(release).toBeDefined());
      await release!();
      await hasCount(page.locator('[data-testid="execution-row"][data-status="failed"]'), 1);
      await hasCount(page.getByLabel('Loading executions'), 0);
    } finally {
      await page.unroute(failedOnly);
    }
  });

  it('holds its layout on a phone (390 px): the header in its bar, every tab on screen, tables scrolling inside their cards', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const tenant = `/tenants/${state.tenantId}`;
      // Each page, and what shows once its data is in.
      const pages: Array<[string, Locator]> = [
        ['/tenants', page.getByRole('table', { name: 'Tenants' })],
        [`${tenant}/actions`, page.getByRole('table', { name: 'Actions' })],
        [`${tenant}/api-tokens`, page.getByTestId('api-token-row')],
        [`${tenant}/hmac-keys`, page.getByTestId('hmac-key-row')],
        [`${tenant}/settings`, page.getByRole('button', { name: 'Create portal link' })],
        [`${tenant}/actions/${state.actionName}`, page.getByTestId('action-schema')],
        [`${tenant}/actions/${state.actionName}/executions`, page.getByTestId('execution-row')],
      ];
      for (const [path, loaded] of pages) {
        await page.goto(console$(path));
        await visible(loaded);
        expect({ path, problems: await layoutProblems(page) }).toEqual({ path, problems: [] });
      }
      await expectAccessible(page);
      await shoot(page, 'phone-execution-log');
      await page.goto(console$(`/tenants/${state.tenantId}/api-tokens`));
      await visible(page.getByRole('table'));
      await shoot(page, 'phone-api-tokens');
    } finally {
      await page.setViewportSize(VIEWPORT);
    }
  });

  it('keeps long unbroken text inside its cards, badges and times whole, and bidi controls off the words around them', async () => {
    // What receivers and tenants may send: compact JSON, base64, URLs of thousands of characters without a space, and
    // U+202E (right-to-left override) left open.
    const unbroken = (length: number) => 'abcdefghij'.repeat(Math.ceil(length / 10)).slice(0, length);
    const flipped = '\u202Eevil.exe';
    const fresh = await createTenant(testApp);
    const tenantName = `T${unbroken(180)}${flipped}`;
    expect((await admin(testApp, 'PATCH', `/tenants/${fresh.tenantId}`, { name: tenantName })).status).toBe(200);
    const answers = [
      { result: JSON.stringify({ data: unbroken(3000), more: unbroken(200) }), error: '' },
      { result: '', error: `https://errors.example.com/${unbroken(600)}${flipped}` },
      { result: `${flipped} and more`, error: '' },
      { result: JSON.stringify({ data: unbroken(2000) }), error: '' },
    ];
    const description = `${unbroken(480)} ${flipped}`;
    const untrusted = [tenantName, description, ...answers.flatMap((answer) => [answer.result, answer.error])];
    const wordy = await Receiver.start((call, response) => {
      const answer = JSON.parse(call.body).test ? {} : answers.shift();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    try {
      const name = `long_${unbroken(55)}`;
      const body = actionBody(wordy.url(`/${unbroken(300)}`), { name, description });
      expect((await gateway(testApp, 'POST', '/actions', { token: fresh.jwt, body })).status).toBe(201);
      for (let run = 0; run < 3; run += 1) {
        await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: fresh.jwt, body: { parameters: { city: 'Oslo' } } });
      }

      await page.goto(console$(`/tenants/${fresh.tenantId}/actions`));
      await visible(page.getByRole('link', { name }));
      expect(await layoutProblems(page, untrusted)).toEqual([]);
      await shoot(page, 'long-text-actions');

      await page.getByRole('link', { name }).click();
      await visible(page.getByRole('heading', { name, level: 2 }));
      expect(await layoutProblems(page, untrusted)).toEqual([]);

      await page.getByRole('link', { name: 'Execution log', exact: true }).click();
      const log = page.getByTestId('execution-log');
      await hasCount(log.getByTestId('execution-row'), 3);
      for (const row of await log.getByTestId('execution-row').all()) await row.getByRole('button', { name: /Attempts of the execution/ }).click();
      await hasCount(log.getByTestId('attempts'), 3);
      // The row shows three lines of a long result; the attempts show all of it.
      await hasText(log.getByTestId('execution-result').last(), unbroken(3000));
      expect(await layoutProblems(page, untrusted)).toEqual([]);
      await shoot(page, 'long-text-execution-log');

      await page.getByRole('link', { name: 'Try it' }).first().click();
      await page.getByTestId('try-form').getByLabel('city').fill('Oslo');
      await page.getByTestId('try-form').getByRole('button', { name: 'Run action' }).click();
      await hasText(page.getByTestId('try-outcome'), 'succeeded');
      expect(await layoutProblems(page, untrusted)).toEqual([]);
      await shoot(page, 'long-text-try-it');

      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Disable tenant' }).click();
      await visible(page.getByRole('dialog'));
      expect(await layoutProblems(page, untrusted)).toEqual([]);
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await wordy.stop();
    }
  });

  it('takes the "copy it now" panel away when the token or key it shows is revoked', async () => {
    const fresh = await createTenant(testApp, { hmacKey: false });
    await page.goto(console$(`/tenants/${fresh.tenantId}/api-tokens`));
    await page.getByLabel('Token name').fill('short-lived');
    await page.getByRole('button', { name: 'Create token' }).click();
    await visible(page.getByTestId('secret-once'));
    const row = page.getByTestId('api-token-row').filter({ hasText: 'short-lived' });
    await row.getByRole('button', { name: 'Revoke short-lived' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await hasText(row, 'revoked');
    await hasCount(page.getByTestId('secret-once'), 0);
    await visible(page.getByRole('button', { name: 'Create token' })); // the form is back

    await page.getByRole('link', { name: 'HMAC keys' }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await visible(page.getByTestId('secret-once'));
    await page.getByTestId('hmac-key-row').getByRole('button', { name: /^Revoke key/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await hasText(page.getByTestId('hmac-key-row'), 'revoked');
    await hasCount(page.getByTestId('secret-once'), 0);
  });

  it('makes a portal link that opens a session scoped to the tenant, once, leaving no secret in the address', async () => {
    await page.goto(console$(`/tenants/${state.tenantId}/settings`));
    await page.getByRole('button', { name: 'Create portal link' }).click();
    const link = page.getByTestId('portal-link');
    await hasText(link, '/console/portal#token=agwp_');
    state.portalUrl = (await link.locator('pre, code').first().textContent())!.trim();
    await expectAccessible(page);
    await shoot(page, 'tenant-settings');

    const developer = await person();
    try {
      await developer.page.goto(state.portalUrl);
      await visible(developer.page.getByRole('heading', { name: state.tenantName, level: 1 }));
      expect(developer.page.url()).toBe(`${testApp.baseUrl}/console/tenants/${state.tenantId}/actions`);
      expect(await developer.page.evaluate('location.href')).not.toContain('agwp_');
      await developer.page.goBack();
      expect(developer.page.url()).not.toContain('agwp_');
      const [cookie] = await developer.context.cookies();
      expect(cookie).toMatchObject({ name: 'agw_console_session', httpOnly: true, sameSite: 'Strict' });
      expect(broken(developer.errors)).toEqual([]);
    } finally {
      await developer.context.close();
    }

    const latecomer = await person();
    try {
      await latecomer.page.goto(state.portalUrl);
      // Said once, under a title that says it: no alert repeating the title in the service's words.
      await visible(latecomer.page.getByRole('heading', { name: 'This portal link cannot be used', level: 1 }));
      await hasText(latecomer.page.getByTestId('portal-link-unusable'), 'a portal link opens the portal once');
      expect(await latecomer.page.getByRole('alert').count()).toBe(0);
      expect(latecomer.page.url()).toBe(`${testApp.baseUrl}/console/portal`);
      expect(await latecomer.context.cookies()).toEqual([]);
      await expectAccessible(latecomer.page);
      await shoot(latecomer.page, 'portal-link-used');
      expectOnlyRefusals(latecomer.errors, 401); // the refused redemption
    } finally {
      await latecomer.context.close();
    }
  });

  it('keeps a tenant session to its own tenant, and ends it at sign-out', async () => {
    const other = await createTenant(testApp);
    const link = (await admin(testApp, 'POST', `/tenants/${state.tenantId}/portal-links`)).body.portal_link;
    const developer = await person();
    try {
      await developer.page.goto(link.url);
      await visible(developer.page.getByRole('heading', { name: state.tenantName, level: 1 }));
      await visible(developer.page.getByText('Tenant portal'));
      await hasCount(developer.page.getByRole('link', { name: 'Settings' }), 0);
      await visible(developer.page.getByRole('link', { name: state.actionName }));
      await expectAccessible(developer.page);
      await shoot(developer.page, 'portal-actions');

      // Another tenant does not exist for this session, in the console or through the API.
      await developer.page.goto(console$(`/tenants/${other.tenantId}/actions`));
      await hasText(developer.page.getByRole('alert'), 'Tenant not found');
      const direct = await statusFromPage(developer.page, `/api/v1/admin/tenants/${other.tenantId}/api-tokens`);
      expect(direct).toBe(404);
      const list = await statusFromPage(developer.page, '/api/v1/admin/tenants');
      expect(list).toBe(403);
      // The tenant list sends a tenant's developer back to their own tenant.
      await developer.page.goto(console$('/tenants'));
      await visible(developer.page.getByRole('heading', { name: state.tenantName, level: 1 }));
      expectOnlyRefusals(developer.errors, 403, 404);

      const [cookie] = await developer.context.cookies();
      await developer.page.getByRole('button', { name: 'Sign out' }).click();
      await visible(developer.page.getByRole('heading', { name: 'You have signed out of the portal', level: 1 }));
      await visible(developer.page.getByText('To come back, open a new portal link from your platform.'));
      expect(await developer.context.cookies()).toEqual([]);
      const reused = await call(testApp.baseUrl, 'GET', `/api/v1/admin/tenants/${state.tenantId}`, { headers: { cookie: `agw_console_session=${cookie.value}` } });
      expect(reused.status).toBe(401);
      expect(broken(developer.errors)).toEqual([]);
    } finally {
      await developer.context.close();
    }
  });

  it('redeems a portal link only once the start-up session check has answered (it may need that session\'s CSRF token)', async () => {
    // The page's first GET /session is held: meanwhile no redemption goes out, the link stays unused, and once the
    // check answers the link opens the tenant.
    const link = (await admin(testApp, 'POST', `/tenants/${state.tenantId}/portal-links`)).body.portal_link;
    const developer = await person();
    try {
      const held: Route[] = [];
      const redemptions: Request[] = [];
      await developer.page.route('**/api/v1/admin/session', (route) => (route.request().method() === 'GET' ? void held.push(route) : route.fallback()));
      developer.page.on('request', (request) => request.url().endsWith('/portal-links/redeem') && redemptions.push(request));
      await developer.page.goto(link.url);
      await eventually(async () => expect(held).toHaveLength(1));
      await visible(developer.page.getByRole('heading', { name: 'Opening your tenant portal', level: 1 }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(redemptions).toEqual([]);
      expect(await testApp.app.get(DataSource).query('SELECT redeemed_at FROM portal_links WHERE token_hash = $1', [sha256(link.token)])).toEqual([{ redeemed_at: null }]);
      await held[0].fallback();

      await visible(developer.page.getByRole('heading', { name: state.tenantName, level: 1 }));
      await visible(developer.page.getByRole('link', { name: state.actionName }));
      expect(developer.page.url()).toBe(`${testApp.baseUrl}/console/tenants/${state.tenantId}/actions`);
      expect(redemptions).toHaveLength(1);
      expect(broken(developer.errors)).toEqual([]);
    } finally {
      await developer.context.close();
    }
  });

  it('refuses a redemption sent by a page of another origin of the same site (another port): the session held stays, no cookie is set', async () => {
    // The attacker's page, on another port of 127.0.0.1: the same site, so the SameSite=Strict cookie goes along.
    const attackerSite = await Receiver.start((_, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Free stickers</title>'));
    const victim = await person();
    try {
      const attackerTenant = await createTenant(testApp);
      await victim.page.goto(console$('/'));
      await victim.page.getByLabel(/^Admin API key/).fill(testApp.config.adminApiKey);
      await victim.page.getByRole('button', { name: 'Sign in' }).click();
      await visible(victim.page.getByRole('heading', { name: 'Tenants', level: 1 }));
      const [before] = await victim.context.cookies();

      const links = await Promise.all([0, 1, 2].map(async () => (await admin(testApp, 'POST', `/tenants/${attackerTenant.tenantId}/portal-links`)).body.portal_link.token as string));
      const attacker = await victim.context.newPage();
      await attacker.goto(attackerSite.url('/stickers'));
      // What the service answered (the page cannot read an opaque answer; the browser can), and what it was sent.
      const statuses: number[] = [];
      attacker.on('response', (response) => void (response.url().endsWith('/portal-links/redeem') && response.request().method() === 'POST' && statuses.push(response.status())));
      const received: Array<{ cookie: boolean; origin?: string; contentType?: string }> = [];
      const guard = SameOriginJsonGuard.prototype.canActivate;
      jest.spyOn(SameOriginJsonGuard.prototype, 'canActivate').mockImplementation(function (this: SameOriginJsonGuard, context) {
        const { headers } = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
        received.push({ cookie: (headers.cookie ?? '').includes('agw_console_session='), origin: headers.origin, contentType: headers['content-type'] });
        return guard.call(this, context);
      });
      const target = `${testApp.baseUrl}/api/v1/admin/portal-links/redeem`;
      await attacker.evaluate(
        async ({ target, links }) => {
          const body = (token: string, type: string) => new Blob([JSON.stringify({ token, replace_session: true })], { type });
          // The probe: no-cors fetches of a Blob body, which need no preflight and carry the cookie.
          await fetch(target, { method: 'POST', mode: 'no-cors', credentials: 'include', body: body(links[0], 'text/plain') });
          await fetch(target, { method: 'POST', mode: 'no-cors', credentials: 'include', body: body(links[1], 'application/json') });
          // A CORS request with the JSON type is stopped by the browser at its preflight, which nothing answers.
          await fetch(target, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: links[2], replace_session: true }) }).catch(() => 'blocked');
        },
        { target, links },
      );
      await eventually(async () => expect(statuses.length).toBeGreaterThanOrEqual(2));
      const origin = new URL(attackerSite.url()).origin;
      // Both carried the operator's cookie (the same site) and the attacker's origin, and were refused.
      expect(received).toEqual([
        { cookie: true, origin, contentType: 'text/plain' },
        // The browser drops the Blob's type from a no-cors request (not a safelisted value): no Content-Type.
        { cookie: true, origin, contentType: undefined },
      ]);
      expect(statuses.slice(0, 2)).toEqual([403, 403]);
      // The CORS request's preflight got no CORS answer: the POST itself never went out.
      expect(statuses).toHaveLength(2);

      // Nothing changed hands: the operator's cookie and session as they were, every link unused.
      expect(await victim.context.cookies()).toEqual([before]);
      expect(await statusFromPage(victim.page, '/api/v1/admin/tenants')).toBe(200);
      const used = await testApp.app.get(DataSource).query('SELECT count(*)::int AS n FROM portal_links WHERE tenant_id = $1 AND redeemed_at IS NOT NULL', [attackerTenant.tenantId]);
      expect(used).toEqual([{ n: 0 }]);
      await attacker.close();
    } finally {
      jest.restoreAllMocks();
      await victim.context.close();
      await attackerSite.stop();
    }
  });

  it('keeps the newest list when an earlier read of it answers last', async () => {
    // The page's first read of the tokens is held (with the answer it got, from before the token below existed)
    // and handed over only after the read that followed the creation has shown the new token.
    const second = await operator.newPage();
    const seen = watchPageErrors(second);
    try {
      let stale: (() => Promise<void>) | undefined;
      let staleRequest: Request | undefined;
      await second.route(`**/api/v1/admin/tenants/${state.tenantId}/api-tokens`, async (route) => {
        if (stale || route.request().method() !== 'GET') return route.fallback();
        const response = await route.fetch();
        staleRequest = route.request();
        stale = () => route.fulfill({ response });
      });
      await second.goto(console$(`/tenants/${state.tenantId}/api-tokens`));
      await eventually(async () => expect(stale).toBeDefined());
      await second.getByLabel('Token name').fill('overtaken');
      await second.getByRole('button', { name: 'Create token' }).click();
      const row = second.getByTestId('api-token-row').filter({ hasText: 'overtaken' });
      await visible(row);

      const finished = second.waitForEvent('requestfinished', (request) => request === staleRequest);
      await stale!();
      await finished;
      await second.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
      expect(await row.count()).toBe(1);
      expect(broken(seen)).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('ends a tenant\'s open sessions when an operator disables the tenant', async () => {
    const link = (await admin(testApp, 'POST', `/tenants/${state.tenantId}/portal-links`)).body.portal_link;
    const developer = await person();
    try {
      await developer.page.goto(link.url);
      await visible(developer.page.getByRole('heading', { name: state.tenantName, level: 1 }));

      await page.goto(console$(`/tenants/${state.tenantId}/settings`));
      await page.getByRole('button', { name: 'Disable tenant' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Disable tenant' }).click();
      await visible(page.getByRole('button', { name: 'Enable tenant' }));

      await developer.page.getByRole('link', { name: 'API tokens' }).click();
      await visible(developer.page.getByRole('heading', { name: 'Your portal session has ended', level: 1 }));
      await visible(developer.page.getByText('Open a new portal link from your platform to go on.'));
      await shoot(developer.page, 'portal-session-ended');
      expectOnlyRefusals(developer.errors, 401); // the request that found the session ended
      // A reload (or the bookmark, the next day) says the same, not the operator's sign-in form.
      await developer.page.reload();
      await visible(developer.page.getByRole('heading', { name: 'Your portal session has ended', level: 1 }));
      await visible(developer.page.getByText('Open a new portal link from your platform to go on.'));
      expect(await developer.page.getByLabel('Admin API key').count()).toBe(0);
      await shoot(developer.page, 'portal-session-ended-reloaded');
    } finally {
      await developer.context.close();
      await admin(testApp, 'PATCH', `/tenants/${state.tenantId}`, { status: 'active' });
    }
  });

  it('opens an action named "new", and shows why a page cannot be drawn under the header instead of a blank page', async () => {
    const other = await createTenant(testApp);
    // A schema the service accepts but the form generator cannot draw (an $anchor reference).
    const json_schema = { type: 'object', properties: { city: { $ref: '#city' } }, $defs: { c: { $anchor: 'city', type: 'string' } } };
    const created = await gateway(testApp, 'POST', '/actions', { token: other.jwt, body: { ...actionBody(receiver.url()), name: 'new', json_schema } });
    expect(created.status).toBe(201);
    const second = await operator.newPage();
    const seen = watchPageErrors(second);
    try {
      await second.goto(console$(`/tenants/${other.tenantId}/actions/new`));
      await visible(second.getByRole('heading', { name: 'new', level: 2 }));
      await visible(second.getByText(created.body.action.description));

      await second.goto(console$(`/tenants/${other.tenantId}/actions/new/try`));
      const alert = second.getByRole('alert');
      await hasText(alert, 'This page could not be shown');
      await hasText(alert, 'Invalid JSON pointer');
      await visible(second.getByRole('button', { name: 'Reload the page' }));
      await visible(second.getByRole('button', { name: 'Sign out' })); // the header stays
      await expectAccessible(second);
      await shoot(second, 'page-error');
      expect(seen.join('\n')).toContain('Invalid JSON pointer'); // React reports the error it caught
    } finally {
      await second.close();
    }
  });

  it('says so when the service cannot be reached at start, and carries on once it can; no key button before the keys are known', async () => {
    const second = await operator.newPage();
    const seen = watchPageErrors(second);
    try {
      let refused = 0;
      await second.route('**/api/v1/admin/session', (route) =>
        route.request().method() === 'GET' && refused++ === 0
          ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service unavailable', details: 'the database cannot be reached' }) })
          : route.fallback(),
      );
      await second.route(`**/api/v1/admin/tenants/${state.tenantId}/hmac-keys`, (route) =>
        route.request().method() === 'GET' ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service unavailable' }) }) : route.fallback(),
      );
      await second.goto(console$(`/tenants/${state.tenantId}/hmac-keys`));
      await hasText(second.getByRole('alert'), 'The console cannot reach the service');
      await hasText(second.getByRole('alert'), 'the database cannot be reached');
      expect(second.url()).toBe(`${testApp.baseUrl}/console/tenants/${state.tenantId}/hmac-keys`); // not sent to sign in
      await expectAccessible(second);
      await shoot(second, 'service-unreachable');

      await second.getByRole('button', { name: 'Try again' }).click();
      await visible(second.getByRole('heading', { name: 'HMAC keys', level: 2 }));
      await hasText(second.getByRole('alert'), 'Service unavailable');
      // Create (first key) or Rotate (with its warning) depends on the keys, which could not be read.
      expect(await second.getByRole('button', { name: /^(Create|Rotate) key$/ }).count()).toBe(0);
      expectOnlyRefusals(seen, 503);
    } finally {
      await second.close();
    }
  });

  it('catches up when another tab signs in again: the refused change says so, and the next one goes through', async () => {
    const fresh = await createTenant(testApp);
    await page.goto(console$(`/tenants/${fresh.tenantId}/api-tokens`));
    await visible(page.getByRole('heading', { name: 'API tokens', level: 2 }));
    // Another tab of the same browser signs in: the cookie is a new session, whose CSRF token this page lacks.
    const other = await operator.newPage();
    try {
      const key = JSON.stringify(testApp.config.adminApiKey);
      await other.goto(console$('/tenants'));
      const status = await other.evaluate(
        `fetch('/api/v1/admin/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ admin_api_key: ${key} }) }).then((r) => r.status)`,
      );
      expect(status).toBe(200);
    } finally {
      await other.close();
    }
    await page.getByLabel('Token name').fill('after another tab');
    await page.getByRole('button', { name: 'Create token' }).click();
    await hasText(page.getByRole('alert'), 'This browser signed in again in another tab');
    expect((await admin(testApp, 'GET', `/tenants/${fresh.tenantId}/api-tokens`)).body.api_tokens).toHaveLength(1); // nothing created
    await page.getByLabel('Token name').fill('after another tab');
    await page.getByRole('button', { name: 'Create token' }).click();
    await hasText(page.getByTestId('secret-once'), "Copy it now: you won't see it again.");
    await page.getByRole('button', { name: 'I have stored it' }).click();
    await hasCount(page.getByTestId('api-token-row').filter({ hasText: 'after another tab' }), 1);
    expectOnlyRefusals(errors, 403);
  });

  it('keeps the tenant page when a reload fails, says why, and enables a tenant only when the service agrees', async () => {
    const fresh = await createTenant(testApp);
    const disabled = await admin(testApp, 'PATCH', `/tenants/${fresh.tenantId}`, { status: 'disabled' });
    expect(disabled.status).toBe(200);
    await page.goto(console$(`/tenants/${fresh.tenantId}/settings`));
    await visible(page.getByRole('button', { name: 'Enable tenant' }));
    const unavailable = { status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service unavailable' }) };
    await page.route(`**/api/v1/admin/tenants/${fresh.tenantId}`, (route) => (route.request().method() === 'PATCH' ? route.fulfill(unavailable) : route.fallback()));
    try {
      await page.getByRole('button', { name: 'Enable tenant' }).click();
      await hasText(page.getByRole('alert'), 'Service unavailable');
      await visible(page.getByRole('button', { name: 'Enable tenant' }));
      expect((await admin(testApp, 'GET', `/tenants/${fresh.tenantId}`)).body.tenant.status).toBe('disabled');
    } finally {
      await page.unroute(`**/api/v1/admin/tenants/${fresh.tenantId}`);
    }
    // The PATCH succeeds, the reload of the tenant that follows fails: the page stays, the error above it.
    await page.route(`**/api/v1/admin/tenants/${fresh.tenantId}`, (route) => (route.request().method() === 'GET' ? route.fulfill(unavailable) : route.fallback()));
    try {
      await page.getByRole('button', { name: 'Enable tenant' }).click();
      await eventually(async () => expect((await admin(testApp, 'GET', `/tenants/${fresh.tenantId}`)).body.tenant.status).toBe('active'));
      await hasText(page.getByRole('alert').first(), 'Service unavailable');
      await visible(page.getByRole('heading', { name: disabled.body.tenant.name, level: 1 }));
      await visible(page.getByRole('link', { name: 'API tokens' }));
      expectOnlyRefusals(errors, 503);
    } finally {
      await page.unroute(`**/api/v1/admin/tenants/${fresh.tenantId}`);
    }
  });

  it('keeps Cancel off while the registration test runs, and does not pull back someone who went elsewhere', async () => {
    const fresh = await createTenant(testApp);
    let answer: (() => void) | undefined;
    const slow = await Receiver.start((_, response) => {
      answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    try {
      await page.goto(console$(`/tenants/${fresh.tenantId}/actions/new-action`));
      await page.getByLabel('Name').fill('slow_to_test');
      await page.getByLabel('Description').fill('Its receiver takes its time');
      await page.getByLabel('Webhook URL').fill(slow.url('/hook'));
      await page.getByLabel('JSON Schema of the parameters').fill('{"type":"object"}');
      await visible(page.getByText('Valid JSON Schema'));
      await page.getByRole('button', { name: 'Register action' }).click();
      await eventually(async () => expect(answer).toBeDefined()); // the registration test is at the receiver
      expect(await page.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);

      await page.getByRole('link', { name: 'API tokens' }).click(); // the user goes elsewhere meanwhile
      await visible(page.getByRole('heading', { name: 'API tokens', level: 2 }));
      answer!();
      await eventually(async () => expect((await gateway(testApp, 'GET', '/actions/slow_to_test', { token: fresh.jwt })).status).toBe(200));
      await visible(page.getByText('slow_to_test: the webhook passed the registration test'));
      expect(new URL(page.url()).pathname).toBe(`/console/tenants/${fresh.tenantId}/api-tokens`);
    } finally {
      await slow.stop();
    }
  });

  it('offers another try when redeeming a portal link failed without using it up', async () => {
    const link = (await admin(testApp, 'POST', `/tenants/${state.tenantId}/portal-links`)).body.portal_link;
    const developer = await person();
    try {
      let refused = 0;
      await developer.page.route('**/api/v1/admin/portal-links/redeem', (route) =>
        refused++ === 0 ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service unavailable' }) }) : route.fallback(),
      );
      await developer.page.goto(link.url);
      await visible(developer.page.getByRole('heading', { name: 'The portal could not be opened', level: 1 }));
      await hasText(developer.page.getByRole('alert'), 'Service unavailable');
      await visible(developer.page.getByText('The link has not been used yet: try again in a moment.'));
      expect(developer.page.url()).not.toContain('agwp_');
      await developer.page.getByRole('button', { name: 'Try again' }).click();
      await visible(developer.page.getByRole('heading', { name: state.tenantName, level: 1 }));
      expectOnlyRefusals(developer.errors, 503);
    } finally {
      await developer.context.close();
    }
  });

  it('stays signed in, and says so, when signing out fails', async () => {
    await page.goto(console$('/tenants'));
    await visible(page.getByRole('heading', { name: 'Tenants', level: 1 }));
    await page.route('**/api/v1/admin/session', (route) =>
      route.request().method() === 'DELETE' ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Service unavailable' }) }) : route.fallback(),
    );
    try {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await hasText(page.getByRole('alert'), 'You are still signed in: signing out failed. Try again.');
      await hasText(page.getByRole('alert'), 'Service unavailable');
      await visible(page.getByRole('heading', { name: 'Tenants', level: 1 }));
      expect(await statusFromPage(page, '/api/v1/admin/tenants')).toBe(200); // the session is still there
      expectOnlyRefusals(errors, 503);
    } finally {
      await page.unroute('**/api/v1/admin/session');
    }
  });

  it('lists a page at a time: tenants and a tenant\'s API tokens load the next 100 on demand, and a revocation keeps what was loaded', async () => {
    // Over a hundred tenants, and a tenant with 120 tokens (90 usable, 30 revoked).
    const tenantIds = async () => new Set(((await testApp.app.get(DataSource).query('SELECT id FROM tenants')) as Array<{ id: string }>).map((row) => row.id));
    const ours: string[] = [];
    for (let i = (await tenantIds()).size; i < 104; i++) {
      const made = await admin(testApp, 'POST', '/tenants', { name: `Paged ${String(i).padStart(3, '0')}` });
      expect(made.status).toBe(201);
      ours.push(made.body.tenant.id);
    }
    const owner = await createTenant(testApp, { hmacKey: false });
    ours.push(owner.tenantId);
    const made: string[] = [];
    for (let i = 1; i < 100; i++) made.push((await admin(testApp, 'POST', `/tenants/${owner.tenantId}/api-tokens`, { name: `token ${String(i).padStart(3, '0')}` })).body.api_token.id);
    for (const id of made.slice(0, 30)) await admin(testApp, 'DELETE', `/tenants/${owner.tenantId}/api-tokens/${id}`);
    for (let i = 100; i < 120; i++) await admin(testApp, 'POST', `/tenants/${owner.tenantId}/api-tokens`, { name: `token ${i}` });

    const before = await tenantIds();
    await page.goto(console$('/tenants'));
    const tenantRows = page.getByRole('table', { name: 'Tenants' }).locator('tbody tr');
    await hasCount(tenantRows, 100);
    await hasText(page.getByTestId('load-more'), '100 shown, more follow');
    // On a shared database other suites make tenants too (hundreds, some of them): each click appends the next
    // page of 100 until the last, which is shorter or ends the list, and the button goes with it.
    for (let shown = 100; ; ) {
      await page.getByRole('button', { name: 'Load more tenants' }).click();
      const [rows, more] = await eventually(async () => {
        const rows = await tenantRows.count();
        const more = (await page.getByTestId('load-more').count()) > 0;
        expect(more ? rows === shown + 100 && (await page.getByTestId('load-more').textContent())?.includes(`${rows} shown, more follow`) : rows > shown && rows <= shown + 100).toBe(true);
        return [rows, more] as const;
      });
      if (!more) break;
      shown = rows;
    }
    await hasCount(page.getByTestId('load-more'), 0);
    // Every tenant is listed once: all that were there when the page opened and still are, ours among them.
    const listed = await tenantRows.locator('td:nth-child(4)').allTextContents();
    const after = await tenantIds();
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(expect.arrayContaining([...before].filter((id) => after.has(id))));
    expect(listed).toEqual(expect.arrayContaining(ours));

    await page.goto(console$(`/tenants/${owner.tenantId}/api-tokens`));
    await hasCount(page.getByTestId('api-token-row'), 100);
    await expectAccessible(page);
    // The end of the first page, as it is on screen (the whole page is 100 rows long).
    await page.getByTestId('load-more').scrollIntoViewIfNeeded();
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'api-tokens-load-more.png') });
    await page.getByRole('button', { name: 'Load more API tokens' }).click();
    await hasCount(page.getByTestId('api-token-row'), 120);
    await hasCount(page.getByTestId('load-more'), 0);
    const last = page.getByTestId('api-token-row').filter({ hasText: 'token 119' });
    await last.getByRole('button', { name: 'Revoke token 119' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await hasText(last, 'revoked');
    await hasCount(page.getByTestId('api-token-row'), 120);
  }, 180_000); // some 250 requests to set up: more than a minute on a busy machine

  it('signs the operator out: the cookie is cleared and the session ended on the service', async () => {
    const [cookie] = await operator.cookies();
    const secretHash = createHash('sha256').update(cookie.value).digest('hex');
    const sessionsOf = () => testApp.app.get(DataSource).query('SELECT count(*)::int AS n FROM console_sessions WHERE secret_hash = $1', [secretHash]);
    expect((await sessionsOf())[0].n).toBe(1);
    await page.goto(console$('/tenants'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await visible(page.getByText('You have signed out.'));
    expect(await operator.cookies()).toEqual([]);
    const reused = await call(testApp.baseUrl, 'GET', '/api/v1/admin/tenants', { headers: { cookie: `agw_console_session=${cookie.value}` } });
    expect(reused.status).toBe(401);
    await page.goto(console$('/tenants'));
    await visible(page.getByRole('heading', { name: 'Sign in to Gateway Management' }));
    // This session's row is gone (other suites' operators may be signed in on a shared database).
    expect((await sessionsOf())[0].n).toBe(0);

    // Signing in from a page that needs a session goes back to that page.
    const deep = `/tenants/${state.tenantId}/hmac-keys`;
    await page.goto(console$(deep));
    await visible(page.getByRole('heading', { name: 'Sign in to Gateway Management' }));
    await page.getByLabel(/^Admin API key/).fill(testApp.config.adminApiKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByRole('heading', { name: 'HMAC keys', level: 2 }));
    expect(page.url()).toBe(`${testApp.baseUrl}/console${deep}`);
  });

  /** A bearer token of the tenant, as the platform would hold one. */
  async function bearerFor(tenantId: string): Promise<string> {
    const token = await admin(testApp, 'POST', `/tenants/${tenantId}/api-tokens`, { name: 'platform' });
    return (await gateway(testApp, 'POST', '/token/exchange', { body: { api_token: token.body.api_token.token } })).body.jwt_token;
  }
});
