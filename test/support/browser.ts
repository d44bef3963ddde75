import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';

/**
 * The browser tests' set-up: playwright-core driving Debian's Chromium (`apt-get install chromium`; `.ci/run`
 * installs it when missing). `npx playwright install` downloads browsers from the internet, which the test
 * machines cannot reach, so the system browser is used instead.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// No sandbox: CI runs as root in a container, where Chromium's sandbox cannot start. No background networking
// or component updates: a test browser must not talk to anything but the app under test.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

/** Where browser tests put their screenshots (ignored by git); look at them, a page can pass and still look wrong. */
export const SCREENSHOT_DIR = resolve(__dirname, '..', '..', 'test-results', 'screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * Collects what the page reports as broken: console errors (`console.error`, failed resource loads) and uncaught
 * exceptions. The returned array fills while the page lives; a test asserts it is empty at the end.
 */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.name}: ${error.message}`));
  page.on('requestfailed', (request) => {
    if (!request.url().startsWith('data:')) errors.push(`request: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'failed'})`);
  });
  return errors;
}

/**
 * Aborts every request that is not for the loopback app under test, and returns the list of those attempted:
 * tests send traffic only to this machine, and a page that reaches out (a CDN, a validator badge) is a defect.
 */
export async function keepOnLoopback(page: Page): Promise<string[]> {
  const outside: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      return route.continue();
    }
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  return outside;
}

/** Saves a full-page screenshot under test-results/screenshots/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * A person at the console: a browser context on the app under test (its base URL, reduced motion, 15-s waits) and
 * its page, with what the page reports as broken (`errors`) and the requests it tried off this machine (`outside`).
 */
export async function openPage(
  browser: Browser,
  baseURL: string,
  viewport = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page; errors: string[]; outside: string[] }> {
  const context = await browser.newContext({ viewport, baseURL, reducedMotion: 'reduce' });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  return { context, page, errors: watchPageErrors(page), outside: await keepOnLoopback(page) };
}

/**
 * Nothing the page reported as broken, and no request off this machine; requests the browser itself dropped because
 * the test moved on (a favicon still loading at the next navigation: net::ERR_ABORTED) are no failure of the page.
 */
export function expectNothingBroken(errors: string[], outside: string[]): void {
  expect(errors.filter((item) => !(item.startsWith('request: ') && item.endsWith('(net::ERR_ABORTED)')))).toEqual([]);
  expect(outside).toEqual([]);
}
