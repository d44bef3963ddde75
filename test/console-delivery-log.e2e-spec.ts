import { mkdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { expectNothingBroken, launchBrowser, openPage } from './support/browser';
import { expectAccessible, layoutProblems } from './support/console-page';
import { operatorSession, redeemPortalLink } from './support/console-session';
import { actionBody, admin, createTenant, gateway, TestTenant } from './support/factories';
import { eventually } from './support/eventually';
import { seedExecutions, seedRollups } from './support/log-seed';
import { Behaviour, ok, Receiver } from './support/receiver';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The console's delivery log (issue 29) in Debian's Chromium: the per-action and tenant-wide logs with their
 * filters, paging to the oldest, lookup by id, an execution's request and answers, replay of one and of "failed
 * since", the payload logging switch, and the statistics drawn. One browser and one operator for the file.
 *
 * Screenshots (1280 px wide) go to test-results/console-delivery-log, or to docs/console with
 * CONSOLE_SCREENSHOTS_DIR=docs/console: look at them.
 */
const SCREENSHOTS = resolve(process.env.CONSOLE_SCREENSHOTS_DIR ?? resolve(__dirname, '..', 'test-results', 'console-delivery-log'));
const VIEWPORT = { width: 1280, height: 800 };
const DAY_MS = 86_400_000;

const hasText = (locator: Locator, text: string) => eventually(async () => expect(await locator.first().textContent()).toContain(text));
const hasCount = (locator: Locator, count: number) => eventually(async () => expect(await locator.count()).toBe(count));

/**
 * The labels of a chart's time axis as drawn, and what is wrong with their spacing: every gap the same (to a
 * pixel), none under 40 px (no "14:00 19:00" bunched at the end).
 */
async function timeAxisProblems(chart: Locator): Promise<{ labels: string[]; problems: string[] }> {
  const ticks = await chart.locator('.recharts-xAxis-tick-labels text').evaluateAll((texts) =>
    texts.map((text) => {
      const box = text.getBoundingClientRect();
      return { label: text.textContent ?? '', x: box.x + box.width / 2 };
    }),
  );
  const gaps = ticks.slice(1).map((tick, index) => tick.x - ticks[index].x);
  const problems = [
    ...(ticks.length < 2 ? [`${ticks.length} label(s)`] : []),
    ...gaps.filter((gap) => Math.abs(gap - gaps[0]) > 1).map((gap) => `gap ${gap.toFixed(1)} px, the first ${gaps[0].toFixed(1)} px`),
    ...gaps.filter((gap) => gap < 40).map((gap) => `gap ${gap.toFixed(1)} px < 40 px`),
  ];
  return { labels: ticks.map((tick) => tick.label), problems };
}

/** Answers each webhook path with its own behaviour; the registration test always with 200. */
function byPath(behaviours: Map<string, Behaviour>): Behaviour {
  return (call, response) => {
    if (JSON.parse(call.body).test) return ok(call, response);
    (behaviours.get(call.path) ?? ok)(call, response);
  };
}

const answer =
  (code: number, body: string, headers: Record<string, string> = {}): Behaviour =>
  (_, response) =>
    void response.writeHead(code, { 'content-type': 'application/json', ...headers }).end(body);

describe('console: the delivery log (issue 29)', () => {
  let testApp: TestApp;
  let receiver: Receiver;
  const behaviours = new Map<string, Behaviour>();
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let outside: string[];
  let tenant: TestTenant;

  beforeAll(async () => {
    // A call held by the receiver (an execution shown while it runs) must outlast a page's load on a busy machine.
    testApp = await startTestApp({ env: { WEBHOOK_MAX_RETRIES: '1', WEBHOOK_TIMEOUT_MS: '20000' } });
    receiver = await Receiver.start(byPath(behaviours));
    browser = await launchBrowser();
    ({ context, page, errors, outside } = await openPage(browser, testApp.baseUrl, VIEWPORT));
    // Signed in as an operator, as the sign-in page leaves the browser: the session cookie (the CSRF token is read
    // again from GET /session when the console starts).
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

  /** A screenshot from the top of the page, without toasts. */
  async function shoot(name: string): Promise<void> {
    for (const dismiss of await page.getByRole('button', { name: 'Dismiss', exact: true }).all()) await dismiss.click();
    await page.evaluate('window.scrollTo(0, 0)');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  /** An action of the tenant whose webhook (its own path) answers executions with `behaviour`. */
  async function action(name: string, behaviour: Behaviour = ok): Promise<{ id: string; name: string }> {
    behaviours.set(`/${name}`, behaviour);
    const created = await gateway(testApp, 'POST', '/actions', { token: tenant.jwt, body: actionBody(receiver.url(`/${name}`), { name }) });
    expect(created.status).toBe(201);
    return { id: created.body.action.id, name };
  }

  const execute = async (name: string, parameters: Record<string, unknown> = { city: 'Oslo' }) => {
    const run = await gateway(testApp, 'POST', `/actions/${name}/execute`, { token: tenant.jwt, body: { parameters } });
    expect(run.status).toBe(200);
    return run.body.execution as { id: string; status: string };
  };

  const tenantPath = (path = '') => `/console/tenants/${tenant.tenantId}${path}`;
  const rows = () => page.getByTestId('execution-log').getByTestId('execution-row');

  it('filters the tenant-wide log by status, action and period, and pages down to the oldest', async () => {
    const busy = await action('busy_action');
    const flaky = await action('flaky_action', answer(500, '{"error":"down"}'));
    // 120 executions two days ago, the oldest first in the database; three failures of another action now.
    await seedExecutions(testApp, tenant.tenantId, busy, 120, new Date(Date.now() - 2 * DAY_MS));
    for (const city of ['Oslo', 'Bergen', 'Tromsø']) expect((await execute(flaky.name, { city })).status).toBe('failed');

    await page.goto(tenantPath());
    await page.getByRole('link', { name: 'Executions', exact: true }).click();
    await hasCount(rows(), 50);
    await hasText(rows().first(), 'flaky_action');
    await hasText(page.getByTestId('load-older'), '50 shown, older ones follow');
    await page.getByRole('button', { name: 'Load older' }).click();
    await hasCount(rows(), 100);
    await page.getByRole('button', { name: 'Load older' }).click();
    await hasCount(rows(), 123);
    await hasText(page.getByTestId('load-older'), '123 shown, down to the oldest kept');
    expect(await page.getByRole('button', { name: 'Load older' }).count()).toBe(0);
    const [oldest] = await testApp.app.get(DataSource).query('SELECT id FROM executions WHERE tenant_id = $1 ORDER BY created_at, id LIMIT 1', [tenant.tenantId]);
    expect(await rows().last().getAttribute('data-id')).toBe(oldest.id);

    // Status: only the three failures.
    await page.getByText('Failed', { exact: true }).click();
    await hasCount(rows(), 3);
    expect(new URL(page.url()).searchParams.get('status')).toBe('failed');
    await expectAccessible(page); // on three rows: axe takes seconds a hundred rows
    await shoot('tenant-executions-failed');
    // Action: the busy one has no failure.
    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'busy_action' }).click();
    await hasText(page.getByTestId('empty-state'), 'No executions match these filters');
    await page.getByText('All', { exact: true }).click();
    await hasCount(rows(), 50);
    await hasText(rows().first(), 'busy_action');

    // Since a day ago (a preset of the picker): none of the busy action's, all two days old.
    await page.getByRole('button', { name: 'Since' }).click();
    await page.getByRole('button', { name: 'A day ago' }).click();
    await hasText(page.getByTestId('empty-state'), 'No executions match these filters');
    await page.keyboard.press('Escape'); // the picker stays open for the time to be adjusted
    await hasCount(page.getByRole('button', { name: 'A day ago' }), 0);
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await hasCount(rows(), 50);

    // Until a day ago, from the address (a shared link): the busy action's only, and no refresh is promised.
    const until = new Date(Date.now() - DAY_MS).toISOString();
    await page.goto(tenantPath(`/executions?until=${encodeURIComponent(until)}`));
    await hasCount(rows(), 50);
    await hasCount(page.locator('[data-testid="execution-row"]', { hasText: 'flaky_action' }), 0);
    expect(await page.getByText('Newest first.', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Until' }).textContent()).toMatch(/\d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2}/);
  });

  it('goes straight to one execution by its id, and says so when there is none', async () => {
    const lookup = await action('lookup_action', answer(200, '{"result":"found me"}'));
    const wanted = await execute(lookup.name, { city: 'Lima' });
    await page.goto(tenantPath('/executions'));
    const input = page.getByRole('textbox', { name: 'Execution id' });
    await input.fill('not an id');
    await page.getByRole('button', { name: 'Go to execution' }).click();
    await hasText(page.getByText(/An execution id is a UUID/), 'An execution id is a UUID');

    await input.fill(` ${wanted.id.toUpperCase()} `);
    await page.getByRole('button', { name: 'Go to execution' }).click();
    await page.getByTestId('execution-detail').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/tenants/${tenant.tenantId}/executions/${wanted.id}`);
    await hasText(page.getByTestId('execution-detail'), 'found me');
    await hasText(page.getByTestId('execution-detail'), 'lookup_action');

    // On the action's own log, the lookup stays under the action; an id of nothing is not found.
    await page.goto(tenantPath(`/actions/${lookup.name}/executions`));
    await page.getByRole('textbox', { name: 'Execution id' }).fill('0195f3c2-7a10-7c3e-9d2b-5b1f0e6a4c21');
    await page.getByRole('button', { name: 'Go to execution' }).click();
    await hasText(page.getByRole('alert'), 'Execution not found');
    await page.getByRole('link', { name: 'Back to the execution log' }).click();
    await hasCount(rows(), 1);

    // An id of another action's execution, looked up under this one: the tenant-wide lookup finds it.
    const other = await action('other_lookup_action');
    const theirs = await execute(other.name);
    await page.getByRole('textbox', { name: 'Execution id' }).fill(theirs.id);
    await page.getByRole('button', { name: 'Go to execution' }).click();
    await hasText(page.getByRole('alert'), 'Execution not found');
    await page.getByRole('link', { name: 'Look for it among all the tenant\'s executions' }).click();
    await hasText(page.getByTestId('execution-detail'), 'other_lookup_action');
    expect(new URL(page.url()).pathname).toBe(`/console/tenants/${tenant.tenantId}/executions/${theirs.id}`);
    errors.length = 0; // the browser logs the 404s it was answered
  });

  it('shows what was sent and what came back: the body as forwarded, headers, each attempt\'s answer, cuts marked, as text', async () => {
    // First attempt: 503 with a 40 kB HTML body (markup that must stay text) and a bidi control; the retry: 200.
    const hostile = `<img src=x onerror="document.title='owned'"> \u202Eevil ${'x'.repeat(40_000)}`;
    let calls = 0;
    const detail = await action('detail_action', (_, response) => {
      calls += 1;
      if (calls === 1) response.writeHead(503, { 'content-type': 'text/html', 'x-receiver': '<b>bold</b>' }).end(hostile);
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"Sunny, 21 °C","error":""}');
    });
    const run = await execute(detail.name, { city: 'Zürich', days: 3 });
    expect(run.status).toBe('succeeded');

    await page.goto(tenantPath(`/actions/${detail.name}/executions`));
    await page.getByRole('link', { name: /Open the execution at/ }).first().click();
    const shown = page.getByTestId('execution-detail');
    await shown.waitFor();
    const sent = shown.getByTestId('request-sent');
    const forwarded = receiver.calls.filter((call) => call.path === `/${detail.name}`).at(-1)!;
    expect(await sent.getByTestId('body').textContent()).toBe(forwarded.body);
    await hasText(sent.getByRole('table', { name: 'Request headers' }), forwarded.headers['webhook-id'] as string);
    const attempts = shown.getByTestId('attempt');
    await hasCount(attempts, 2);
    await hasText(attempts.first(), 'Response: 503');
    await hasText(attempts.first().getByTestId('cut-marker'), 'cut: the first 16 KiB kept');
    await hasText(attempts.first(), '40,');
    await hasText(attempts.first().getByRole('table', { name: 'Response headers of attempt 1' }), '<b>bold</b>');
    await hasText(attempts.nth(1), 'Response: 200');
    await hasText(attempts.nth(1).getByTestId('body'), '{"result":"Sunny, 21 °C","error":""}');
    // The receiver's markup is text: no element was made of it, nothing ran.
    expect(await shown.locator('img').count()).toBe(0);
    expect(await shown.locator('b').count()).toBe(0);
    expect(await page.title()).not.toBe('owned');
    expect(await layoutProblems(page, [(await attempts.first().getByTestId('body').textContent())!])).toEqual([]);

    // Formatted JSON, on demand; "As sent" is the exact bytes.
    await sent.getByText('Formatted', { exact: true }).click();
    await hasText(sent.getByTestId('body'), '"city": "Zürich"');
    await sent.getByText('As sent', { exact: true }).click();
    expect(await sent.getByTestId('body').textContent()).toBe(forwarded.body);
    await expectAccessible(page);
    await shoot('execution-detail');
  });

  it('follows an execution accepted to run in the background: its state and attempts so far, then its outcome, with no reload', async () => {
    const held: ServerResponse[] = [];
    let calls = 0;
    const slow = await action('slow_action', (_, response) => {
      calls += 1;
      if (calls === 1) response.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"busy"}');
      else held.push(response);
    });
    const accepted = await gateway(testApp, 'POST', `/actions/${slow.name}/execute`, {
      token: tenant.jwt,
      body: { parameters: { city: 'Oslo' } },
      headers: { prefer: 'respond-async' },
    });
    expect([accepted.status, accepted.body.execution.status]).toEqual([202, 'pending']);
    await eventually(() => expect(held).toHaveLength(1));

    await page.goto(tenantPath(`/executions/${accepted.body.execution.id}`));
    const shown = page.getByTestId('execution-detail');
    const progress = page.getByTestId('execution-progress');
    await hasText(progress, 'In progress: running');
    await hasText(progress, '1 attempt failed so far');
    await hasText(shown, 'running');
    await hasCount(shown.getByTestId('attempt'), 1);
    await hasText(shown.getByTestId('attempt'), 'HTTP 503');
    // What was sent is kept when it finishes: no "not kept" notice meanwhile.
    await hasCount(page.getByTestId('payload-missing'), 0);
    await expectAccessible(page);
    await shoot('execution-in-progress');

    for (const response of held.splice(0)) response.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"Sunny at last","error":""}');
    // The page reads it again by itself until it has finished.
    await hasText(shown, 'Sunny at last');
    await hasCount(progress, 0);
    await hasCount(shown.getByTestId('attempt'), 2);
    await hasText(shown, 'succeeded');
    await shown.getByTestId('request-sent').waitFor();
  });

  it('shows the idempotency key an execution was made under, and none for one without', async () => {
    const keyed = await action('keyed_action', answer(200, '{"result":"booked"}'));
    const key = 'booking-7f3c2a9e-retry-safe';
    const run = await gateway(testApp, 'POST', `/actions/${keyed.name}/execute`, { token: tenant.jwt, body: { parameters: { city: 'Lima' } }, headers: { 'idempotency-key': key } });
    expect(run.status).toBe(200);
    const plain = await execute(keyed.name);

    await page.goto(tenantPath(`/actions/${keyed.name}/executions/${run.body.execution.id}`));
    const shown = page.getByTestId('execution-detail');
    await hasText(shown.getByTestId('idempotency-key'), key);
    await shoot('execution-idempotency-key');
    await page.goto(tenantPath(`/actions/${keyed.name}/executions/${plain.id}`));
    await hasText(shown, 'booked');
    await hasCount(shown.getByTestId('idempotency-key'), 0);
  });

  it('replays one execution: a new execution, on the same webhook, that links back to its original', async () => {
    const replayed = await action('replay_action', answer(500, '{"error":"try later"}'));
    const original = await execute(replayed.name, { city: 'Quito' });
    expect(original.status).toBe('failed');
    behaviours.set('/replay_action', answer(200, '{"result":"second time lucky"}'));
    const before = receiver.calls.length;

    await page.goto(tenantPath(`/actions/${replayed.name}/executions/${original.id}`));
    await page.getByTestId('execution-detail').waitFor();
    // It asks first, saying what is sent; Cancel sends nothing.
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay this execution?' });
    await hasText(dialog, 'This execution failed: a receiver that handled it after all can drop the replay by its webhook-id.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await hasCount(dialog, 0);
    expect(receiver.calls.length).toBe(before);
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await dialog.getByRole('button', { name: 'Send it again' }).click();
    await eventually(() => expect(new URL(page.url()).pathname).not.toContain(original.id));
    const shown = page.getByTestId('execution-detail');
    await hasText(shown, 'second time lucky');
    // What became of it is said in the page, above its request: nothing floats over "Request sent".
    await hasText(shown.getByTestId('replayed'), 'Replayed: succeeded');
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    const requestHeading = shown.getByRole('heading', { name: 'Request sent' });
    await requestHeading.scrollIntoViewIfNeeded();
    expect(await requestHeading.evaluate((heading) => {
      const box = heading.getBoundingClientRect();
      const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
      return heading.contains(heading.ownerDocument.elementFromPoint(x, y));
    })).toBe(true);
    await hasText(shown.getByTestId('replay-of'), original.id);
    // Its attempts carried the original's id as webhook-id, not its own: the page says which.
    await hasText(shown, `A replay: every attempt carried its original's id, ${original.id}, as its webhook-id (not this id)`);
    expect(receiver.calls.length).toBe(before + 1);
    expect(receiver.calls.at(-1)!.headers['webhook-id']).toBe(original.id);
    expect(JSON.parse(receiver.calls.at(-1)!.body).parameters).toEqual({ city: 'Quito' });
    const newId = new URL(page.url()).pathname.split('/').at(-1)!;
    const stored = await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/actions/${replayed.name}/executions/${newId}`);
    expect(stored.body.execution).toMatchObject({ status: 'succeeded', replay_of: original.id });
    await page.evaluate('window.scrollTo(0, 0)');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, 'execution-replayed-said.png') }); // the viewport, as the operator sees it
    await shoot('execution-replayed');

    // Replaying a succeeded execution warns that its receiver may act on it twice.
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    await hasText(dialog.getByTestId('replay-succeeded-warning'), 'This execution succeeded: its receiver has acted on it already, and may act again');
    await page.screenshot({ path: join(SCREENSHOTS, 'execution-replay-confirm.png') });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(receiver.calls.length).toBe(before + 1);

    // Back to the original from the link; the log marks the replay.
    await shown.getByTestId('replay-of').click();
    await eventually(() => expect(new URL(page.url()).pathname).toContain(original.id));
    await page.getByRole('link', { name: 'Back to the execution log' }).click();
    await hasCount(rows(), 2);
    await hasText(rows().first(), 'replay');
  });

  it('replays the failed executions since a time, showing done and left until it has finished', async () => {
    const bulk = await action('bulk_action', answer(500, '{"error":"down"}'));
    for (let index = 0; index < 4; index++) expect((await execute(bulk.name, { city: `City ${index}` })).status).toBe('failed');
    // The replays reach a receiver that holds the first one until the test has seen the replay under way.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    behaviours.set('/bulk_action', (call, response) => void held.then(() => ok(call, response)));

    await page.goto(tenantPath(`/actions/${bulk.name}/executions`));
    await hasCount(rows(), 4);
    await page.getByRole('button', { name: 'Replay failed since…' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('button', { name: 'Failed since' }).textContent()).toMatch(/\d{2} \w{3} \d{4}/);
    await dialog.getByRole('button', { name: 'Replay failed executions' }).click();
    const progress = page.getByTestId('bulk-replay');
    await hasText(progress.getByTestId('bulk-replay-counts'), '0 done, 4 left of 4');
    expect(await progress.getAttribute('data-status')).toBe('running');
    expect(new URL(page.url()).searchParams.get('replay')).toMatch(/^[0-9a-f-]{36}$/);
    await shoot('bulk-replay-running');

    release();
    await eventually(async () => expect(await progress.getAttribute('data-status')).toBe('done'));
    await hasText(progress.getByTestId('bulk-replay-counts'), '4 done, 0 left of 4 · 4 succeeded, 0 failed again, 0 skipped');
    await hasCount(rows(), 8); // the log follows: four replays, succeeded
    await hasCount(page.locator('[data-testid="execution-row"][data-status="succeeded"]'), 4);
    await expectAccessible(page);
    await shoot('bulk-replay-done');
    await page.getByRole('button', { name: 'Dismiss the bulk replay' }).click();
    await hasCount(page.getByTestId('bulk-replay'), 0);
  });

  it('turns payload logging off for an action: nothing kept, nothing to replay, and on again', async () => {
    const quiet = await action('quiet_action', answer(200, '{"result":"ok"}'));
    await page.goto(tenantPath(`/actions/${quiet.name}`));
    const toggle = page.getByRole('switch', { name: /payload logging/ });
    await eventually(async () => expect(await toggle.isEnabled()).toBe(true));
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click({ force: true });
    await eventually(async () => expect(await toggle.isChecked()).toBe(false));
    await eventually(async () => {
      const settings = await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/actions/${quiet.name}/log-settings`);
      expect(settings.body).toEqual({ log_settings: { payload_logging: false } });
    });
    await hasText(page.getByText(/^Off: /), 'cannot be replayed');
    await shoot('payload-logging-off');

    const run = await execute(quiet.name, { city: 'personal data' });
    await page.goto(tenantPath(`/actions/${quiet.name}/executions/${run.id}`));
    await hasText(page.getByTestId('payload-missing'), 'Payload logging was off for this action');
    expect(await page.getByRole('button', { name: 'Replay', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByTestId('request-sent').count()).toBe(0);
    expect(await page.getByTestId('execution-detail').textContent()).not.toContain('personal data');

    await page.goto(tenantPath(`/actions/${quiet.name}`));
    await eventually(async () => expect(await toggle.isEnabled()).toBe(true));
    await toggle.click({ force: true });
    await eventually(async () => {
      const settings = await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/actions/${quiet.name}/log-settings`);
      expect(settings.body).toEqual({ log_settings: { payload_logging: true } });
    });
  });

  it('draws the statistics of the tenant and of one action: executions succeeded and failed, p50 and p95', async () => {
    const charted = await action('charted_action', answer(200, '{"result":"ok"}'));
    for (let index = 0; index < 3; index++) await execute(charted.name);
    behaviours.set('/charted_action', answer(200, '{"error":"no such city"}'));
    await execute(charted.name);
    // Another action's history, as its rollups would hold it: a daily rhythm per hour, slower in the evening, for
    // the 47 hours and 29 days before this one.
    const steady = await action('steady_action');
    const HOUR_MS = 3_600_000;
    const thisHour = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const hours = Array.from({ length: 47 }, (_, index) => {
      const start = new Date(thisHour - (47 - index) * HOUR_MS);
      const busy = 20 + Math.round(15 * Math.sin((start.getUTCHours() / 24) * 2 * Math.PI));
      return { start, succeeded: busy, failed: index % 6 === 0 ? 4 : index % 4 === 0 ? 1 : 0, durations: [30, 45, 60, 80, 120 + (index % 5) * 40] };
    });
    await seedRollups(testApp, tenant.tenantId, steady.id, 'hourly', hours);
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const days = Array.from({ length: 29 }, (_, index) => ({
      start: new Date(today - (29 - index) * DAY_MS),
      succeeded: 400 + ((index * 37) % 90),
      failed: index % 7 === 3 ? 60 : 8,
      durations: [35, 50, 70, 90 + (index % 4) * 30, 200 + (index % 6) * 50],
    }));
    await seedRollups(testApp, tenant.tenantId, steady.id, 'daily', days);

    await page.goto(tenantPath());
    await page.getByRole('link', { name: 'Statistics', exact: true }).click();
    const totals = page.getByTestId('stats-totals');
    await hasText(totals, 'Success rate');
    const executions = page.getByTestId('chart-executions');
    // A bar for each hour that had executions (48), and the two lines across them.
    const bars = (chart: Locator) => chart.locator('path.recharts-rectangle');
    await eventually(async () => expect(await bars(executions).count()).toBeGreaterThanOrEqual(48));
    await eventually(async () => expect(await page.getByTestId('chart-duration').locator('path.recharts-line-curve').count()).toBe(2));
    await hasText(executions, 'Succeeded');
    // A bar's tooltip names its hour with its day (48 hours hold each time of day twice) and its counts.
    await bars(executions).nth(20).hover();
    const tooltip = executions.locator('.recharts-tooltip-wrapper');
    await eventually(async () => expect(await tooltip.textContent()).toMatch(/^\d{1,2} \w{3}, \d{2}:00.*Succeeded/));
    const perAction = page.getByRole('table', { name: 'Each action, the last 24 hours' });
    const row = perAction.getByRole('row', { name: /charted_action/ });
    expect((await row.getByRole('cell').allTextContents()).slice(1, 4)).toEqual(['4', '3', '1']);
    expect(await layoutProblems(page)).toEqual([]);
    await expectAccessible(page);
    // The time axes' labels: evenly spaced, the last one no closer to its neighbour than the others.
    for (const chart of [executions, page.getByTestId('chart-duration')]) await eventually(async () => expect((await timeAxisProblems(chart)).problems).toEqual([]));
    await shoot('tenant-statistics');

    await page.getByText(/^Last \d+ days$/).click();
    await eventually(async () => expect(await bars(executions).count()).toBeGreaterThanOrEqual(30));
    await eventually(async () => expect(await timeAxisProblems(executions)).toEqual({ labels: expect.arrayContaining([expect.stringMatching(/^\d{1,2} \w{3}$/)]), problems: [] }));
    await shoot('tenant-statistics-daily');

    // One action's own numbers, from the link in the table.
    await row.getByRole('link', { name: 'charted_action' }).click();
    await eventually(() => expect(new URL(page.url()).pathname).toBe(`/console/tenants/${tenant.tenantId}/actions/charted_action/stats`));
    await hasText(page.getByTestId('stats-totals'), '75.0 %');
    expect(await page.getByRole('table', { name: 'Each action, the last 24 hours' }).count()).toBe(0);
    await eventually(async () => expect(await bars(page.getByTestId('chart-executions')).count()).toBeGreaterThanOrEqual(2));
    await shoot('action-statistics');
  });

  it('gives a tenant\'s developer (portal session) the same log, execution pages and statistics, of their tenant alone', async () => {
    const other = await createTenant(testApp);
    const theirs = await gateway(testApp, 'POST', '/actions', { token: other.jwt, body: actionBody(receiver.url('/theirs'), { name: 'their_action' }) });
    expect(theirs.status).toBe(201);
    const theirRun = (await gateway(testApp, 'POST', '/actions/their_action/execute', { token: other.jwt, body: { parameters: { city: 'Oslo' } } })).body.execution;
    const link = (await admin(testApp, 'POST', `/tenants/${tenant.tenantId}/portal-links`)).body.portal_link;
    const session = await redeemPortalLink(testApp.baseUrl, link.token);
    const developer = await openPage(browser, testApp.baseUrl, VIEWPORT);
    try {
      await developer.context.addCookies([{ name: 'agw_console_session', value: session.cookie, url: testApp.baseUrl }]);
      const own = developer.page;
      await own.goto(tenantPath('/executions'));
      await own.getByTestId('execution-row').first().waitFor();
      expect(await own.getByTestId('execution-log').textContent()).not.toContain('their_action');
      await own.getByRole('link', { name: 'Statistics', exact: true }).click();
      await own.getByTestId('chart-executions').locator('path.recharts-rectangle').first().waitFor();

      // Another tenant's execution, by its id: not found here, and that tenant's pages are not theirs.
      await own.goto(tenantPath('/executions'));
      await own.getByRole('textbox', { name: 'Execution id' }).fill(theirRun.id);
      await own.getByRole('button', { name: 'Go to execution' }).click();
      await hasText(own.getByRole('alert'), 'Execution not found');
      await own.goto(`/console/tenants/${other.tenantId}/executions/${theirRun.id}`);
      await hasText(own.getByRole('alert'), 'Tenant not found');
      expect(await own.locator('body').textContent()).not.toContain('their_action');
      // The browser logs the refusals (404) it was answered; nothing else broke.
      expectNothingBroken(developer.errors.filter((error) => !/status of 404/.test(error)), developer.outside);
    } finally {
      await developer.context.close();
    }
  });

  it('holds its layout on a phone (390 px): filters wrap, tables and charts stay inside their cards', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const some = (await admin(testApp, 'GET', `/tenants/${tenant.tenantId}/executions?limit=1&action=detail_action`)).body.executions[0];
      const pages: Array<[string, Locator]> = [
        ['/executions', rows().first()],
        ['/actions/detail_action/executions', rows().first()],
        [`/actions/detail_action/executions/${some.id}`, page.getByTestId('attempt').first()],
        ['/stats', page.getByTestId('chart-executions')],
      ];
      for (const [path, loaded] of pages) {
        await page.goto(tenantPath(path));
        await loaded.waitFor();
        // The receiver's bodies hold a bidi control (U+202E): each reorders its own block only.
        const bodies = await page.getByTestId('body').allTextContents();
        expect({ path, problems: await layoutProblems(page, bodies) }).toEqual({ path, problems: [] });
        if (path === '/stats') await eventually(async () => expect((await timeAxisProblems(loaded)).problems).toEqual([]));
        await shoot(`phone${path.replace(/\/[0-9a-f-]{36}$/, '/one').replace(/\//g, '-')}`);
      }
    } finally {
      await page.setViewportSize(VIEWPORT);
    }
  });
});
