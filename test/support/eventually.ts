/**
 * Retries `check` (a function holding jest expectations) until it passes or `timeoutMs` runs out, then fails with
 * its last error: playwright-core has locators that wait, but not the web-first assertions of @playwright/test.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000, intervalMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
