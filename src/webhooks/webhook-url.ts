export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * The syntactic rules for a webhook URL (contract: absolute http or https, at most 2048 characters, https only
 * when required, no user-info). Returns the problem, or the parsed URL.
 */
export function parseWebhookUrl(raw: string, requireHttps: boolean): URL | string {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  // The URL parser forgives surrounding spaces and strips tabs, but the URL is stored and shown as sent.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return 'must not contain spaces or control characters';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http or https URL';
  if (requireHttps && url.protocol !== 'https:') return 'must use https';
  if (url.username || url.password) return 'must not contain user credentials';
  if (!url.hostname) return 'must name a host';
  return url;
}
