import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';

/**
 * Browser tests drive Debian's Chromium with playwright-core (`apt-get install chromium`; `.ci/run` installs it
 * when missing): `npx playwright install` downloads browsers, which the test machines cannot.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// No sandbox: CI runs as root, where Chromium's sandbox cannot start. No background networking or component
// updates: the test browser talks to nothing but the app under test.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];

/** Where screenshots go unless a test says otherwise (ignored by git). */
export const SCREENSHOT_DIR = resolve(__dirname, '..', '..', 'test-results', 'screenshots');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/**
 * What the page reports as broken while it lives: console errors (a CSP violation is one), uncaught exceptions
 * and failed requests. A test asserts the array is empty.
 */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.name}: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    // ERR_ABORTED: the browser dropped the request because the page moved on (a favicon still loading when the
    // test navigates), not because anything failed.
    if (request.url().startsWith('data:') || reason === 'net::ERR_ABORTED') return;
    errors.push(`request: ${request.method()} ${request.url()} (${reason})`);
  });
  return errors;
}

/** Aborts every request that is not for this machine and lists them: a page that reaches out is a defect. */
export async function keepOnLoopback(page: Page): Promise<string[]> {
  const outside: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  return outside;
}

/** A full-page screenshot `<dir>/<name>.png`; returns its path. */
export async function screenshot(page: Page, name: string, dir = SCREENSHOT_DIR): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
