/** The contract's budget headers. */
export function rateLimitHeaders(state: { limit: number; remaining: number; resetSeconds: number }): Record<string, string> {
  return { 'X-RateLimit-Limit': String(state.limit), 'X-RateLimit-Remaining': String(state.remaining), 'X-RateLimit-Reset': String(state.resetSeconds) };
}
