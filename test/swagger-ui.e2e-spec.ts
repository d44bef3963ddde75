import type { Browser, Page } from 'playwright-core';
import { keepOnLoopback, launchBrowser, screenshot, watchPageErrors } from './support/browser';
import { call } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Operation {
  operationId: string;
  tags?: string[];
}

/** Every operation of the document, webhooks included, as Swagger UI names its blocks. */
function operationsOf(document: { paths: Record<string, Record<string, Operation>>; webhooks?: Record<string, Record<string, Operation>> }): string[] {
  return [...Object.values(document.paths), ...Object.values(document.webhooks ?? {})].flatMap((item) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => `${method} ${operation.operationId}`),
  );
}

describe('Swagger UI at /api/v1/gateway/docs, in a real browser', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [testApp, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  afterEach(() => page.close());

  it('renders every operation of openapi.json, without a console or page error and without leaving this machine', async () => {
    const errors = watchPageErrors(page);
    const outside = await keepOnLoopback(page);
    const document = (await call(testApp.baseUrl, 'GET', '/api/v1/gateway/openapi.json')).body;
    const expected = operationsOf(document).sort();
    expect(expected.length).toBeGreaterThanOrEqual(19);

    const response = await page.goto(`${testApp.baseUrl}/api/v1/gateway/docs`, { waitUntil: 'networkidle' });
    expect(response?.status()).toBe(200);
    await page.locator('.swagger-ui .info .title').waitFor();
    await page.locator('.opblock').first().waitFor();

    // Each operation is one block; its summary holds the method and, with displayOperationId, the operation id.
    const rendered = await page.locator('.opblock').evaluateAll((blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent?.trim().toLowerCase() ?? '?';
        const operationId = block.querySelector('.opblock-summary-operation-id')?.textContent?.trim() ?? '?';
        return `${method} ${operationId}`;
      }),
    );
    expect(rendered.sort()).toEqual(expected);
    await expect(page.locator('.swagger-ui .info .title').textContent()).resolves.toContain('Action Gateway');
    await screenshot(page, 'swagger-ui');

    // Opening an operation shows its parameters and responses (the page is interactive, not just painted).
    await page.locator('.opblock-post .opblock-summary', { hasText: 'createAction' }).first().click();
    await page.locator('.opblock.is-open .responses-table').first().waitFor();
    await expect(page.locator('.opblock.is-open .response-col_status').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['201', '400', '401', '409', '413', '429']),
    );

    await screenshot(page, 'swagger-ui-create-action');
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });
});
