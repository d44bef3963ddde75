export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** `http://` or `https://` (any case), then a host part that is not empty. */
const ABSOLUTE_HTTP_URI = /^https?:\/\/[^/?#]/i;
/**
 * The characters a URI may hold (RFC 3986: unreserved, reserved, and % of percent-encodings). Where they stand is
 * left to the URL parser, so `[` `]` pass outside an IPv6 host too (`?ids[]=1` is common), and a second `#`.
 */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/**
 * The syntactic rules for a webhook URL (spec: a URI; contract: absolute http or https, at most 2048 characters,
 * https only when required; no user-info). Returns the problem, or the parsed URL.
 */
export function parseWebhookUrl(raw: string, requireHttps: boolean): URL | string {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  // The URL parser forgives surrounding spaces and strips tabs, but the URL is stored and shown as sent.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\s\u0000-\u001f\u007f]/.test(raw)) return 'must not contain spaces or control characters';
  // The URL parser also repairs what is not a URI (`http:host/x`, `http:\\host\x`, `http:///host`, `%zz`, raw
  // non-ASCII), but the URL is stored and shown as sent, and other clients read it as what it is.
  if (!ABSOLUTE_HTTP_URI.test(raw)) return 'must be an absolute http or https URL';
  if (!URI_CHARACTERS.test(raw)) return 'must be a URI (RFC 3986): other characters, non-ASCII ones included, must be percent-encoded';
  if (/%(?![0-9A-Fa-f]{2})/.test(raw)) return 'must be a URI (RFC 3986): % must start a percent-encoding like %2F';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (requireHttps && url.protocol !== 'https:') return 'must use https';
  if (url.username || url.password) return 'must not contain user credentials';
  if (!url.hostname) return 'must name a host';
  return url;
}
