/** The placeholder in the console's index.html that each response replaces with its own nonce. */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * The headers of every console page. The Content-Security-Policy allows scripts only from the service itself
 * (no inline script, no eval), style elements only with this response's nonce (the component library writes its
 * CSS variables into one), requests only to the service, frames only from CONSOLE_FRAME_ANCESTORS, and images
 * from the service and `imageSources` (the portal's logo, PORTAL_LOGO_URL, as its exact URL).
 */
export function consolePageHeaders(nonce: string, frameAncestors: readonly string[], imageSources: readonly string[] = []): Record<string, string> {
  const ancestors = frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'";
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    ["img-src 'self' data:", ...imageSources].join(' '),
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
  return {
    'content-security-policy': policy,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    ...(frameAncestors.length === 0 ? { 'x-frame-options': 'DENY' } : {}),
  };
}
