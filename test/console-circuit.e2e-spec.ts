import { Browser, BrowserContext, Page } from 'playwright-core';
import { expectNothingBroken, launchBrowser, openPage, screenshot } from './support/browser';
import { expectAccessible } from './support/console-page';
import { operatorSession } from './support/console-session';
import { actionBody, createTenant, gateway, TestTenant } from './support/factories';
import { eventually } from './support/eventually';
import { ok, Receiver, status } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The console's action page shows the action's circuit breaker (Debian's Chromium): closed, then open after the
 * receiver failed WEBHOOK_BREAKER_FAILURES executions in a row, with until when executions fail at once.
 * Screenshot: test-results/screenshots/action-circuit-open.png.
 */
describe('console: the action page shows the circuit', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let outside: string[];
  let tenant: TestTenant;

  beforeAll(async () => {
    testApp = await startTestApp({ env: { WEBHOOK_BREAKER_FAILURES: '3', WEBHOOK_BREAKER_COOLDOWN_MS: '600000', WEBHOOK_MAX_RETRIES: '0' } });
    receiver = await Receiver.start((call, response) => (JSON.parse(call.body).test ? ok(call, response) : status(503)(call, response)));
    browser = await launchBrowser();
    ({ context, page, errors, outside } = await openPage(browser, testApp.baseUrl, { width: 1280, height: 800 }));
    const session = await operatorSession(testApp.baseUrl, testApp.config.adminApiKey);
    await context.addCookies([{ name: 'agw_console_session', value: session.cookie, url: testApp.baseUrl }]);
    tenant = await createTenant(testApp);
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await testApp?.close();
  });

  afterEach(() => expectNothingBroken(errors, outside));

  it('closed at first; open after three failed executions, saying until when executions fail at once', async () => {
    const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url('/down'), { name: 'down_action' }) });
    expect(created.status).toBe(201);
    const circuit = page.getByTestId('circuit');

    await page.goto(`/console/tenants/${tenant.tenantId}/actions/down_action`);
    await eventually(async () => expect(await circuit.getAttribute('data-state')).toBe('closed'));
    expect(await page.getByTestId('circuit-summary').textContent()).toBe('Executions go to the receiver. ');

    for (let i = 0; i < 3; i++) expect((await gateway(testApp, 'POST', '/actions/down_action/execute', { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } })).body.execution.status).toBe('failed');
    await page.reload();
    await eventually(async () => expect(await circuit.getAttribute('data-state')).toBe('open'));
    const summary = (await page.getByTestId('circuit-summary').textContent()) ?? '';
    expect(summary).toMatch(/^Open since .+ after 3 failed executions in a row: executions fail at once, nothing is sent, until .+; the next one after that is the probe\.$/);
    expect(await circuit.getByText('open', { exact: true }).count()).toBe(1);
    const retryAt = await circuit.locator('time').nth(1).getAttribute('datetime');
    const api = await gateway(testApp, 'POST', '/actions/down_action/execute', { token: tenant.jwt, body: { parameters: { city: 'Oslo' } } });
    expect(api.body.execution.error).toBe(`webhook circuit open after 3 consecutive failed executions: no call is sent before ${retryAt}`);
    await expectAccessible(page);
    await screenshot(page, 'action-circuit-open');
  });
});
