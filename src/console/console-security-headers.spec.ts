import { consolePageHeaders } from './console-security-headers';

describe('consolePageHeaders', () => {
  it('allows scripts from the service only, styles with the nonce, and no framing by default', () => {
    const headers = consolePageHeaders('abc', []);
    const policy = headers['content-security-policy'];
    expect(policy.split('; ')).toEqual([
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self' 'nonce-abc'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "manifest-src 'self'",
      "base-uri 'none'",
      "form-action 'self'",
      "object-src 'none'",
      "frame-ancestors 'none'",
    ]);
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' });
  });

  it('lets the configured origins frame the console (and drops X-Frame-Options, which cannot say that)', () => {
    const headers = consolePageHeaders('abc', ['https://app.example.com', 'https://admin.example.com']);
    expect(headers['content-security-policy']).toContain('frame-ancestors https://app.example.com https://admin.example.com');
    expect(headers['x-frame-options']).toBeUndefined();
  });

  it('lets images come from the exact sources given (the portal logo), and from nowhere else', () => {
    const policy = consolePageHeaders('abc', [], ['https://cdn.example.com/brand/logo.svg'])['content-security-policy'];
    expect(policy).toContain("img-src 'self' data: https://cdn.example.com/brand/logo.svg;");
    expect(consolePageHeaders('abc', [])['content-security-policy']).toContain("img-src 'self' data:;");
  });
});
