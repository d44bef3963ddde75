import { parseWebhookUrl } from './webhook-url';

describe('parseWebhookUrl', () => {
  it.each([
    'https://hooks.example.com/v2/run?x=1',
    'http://127.0.0.1:8080/hook',
    'https://[2606:4700::1]/',
    'HTTPS://Hooks.Example.com/a%2Fb?q=%C3%BC&r=(1)*[2]#frag',
  ])('accepts %s', (raw) => {
    expect(parseWebhookUrl(raw, false)).toBeInstanceOf(URL);
  });

  it.each([
    ['hooks.example.com/run', false, 'must be an absolute http or https URL'],
    ['ftp://example.com/', false, 'must be an absolute http or https URL'],
    ['javascript:alert(1)', false, 'must be an absolute http or https URL'],
    ['file:///etc/passwd', false, 'must be an absolute http or https URL'],
    ['http://example.com/', true, 'must use https'],
    // Strings the URL parser would repair into a URL, but that are not URIs as written.
    ['http:127.0.0.1:4999/ok', false, 'must be an absolute http or https URL'],
    ['http:/127.0.0.1:4999/ok', false, 'must be an absolute http or https URL'],
    ['http:///127.0.0.1:4999/ok', false, 'must be an absolute http or https URL'],
    ['http:\\\\127.0.0.1:4999\\ok', false, 'must be an absolute http or https URL'],
    ['http://127.0.0.1:4999\\ok', false, 'must be a URI (RFC 3986): other characters, non-ASCII ones included, must be percent-encoded'],
    ['https://example.com/?a=\u00fc', false, 'must be a URI (RFC 3986): other characters, non-ASCII ones included, must be percent-encoded'],
    ['https://b\u00fccher.example/', false, 'must be a URI (RFC 3986): other characters, non-ASCII ones included, must be percent-encoded'],
    ['https://example.com/<script>', false, 'must be a URI (RFC 3986): other characters, non-ASCII ones included, must be percent-encoded'],
    ['https://example.com/o%zzk', false, 'must be a URI (RFC 3986): % must start a percent-encoding like %2F'],
    ['https://example.com/100%', false, 'must be a URI (RFC 3986): % must start a percent-encoding like %2F'],
    ['https://user:secret@example.com/', false, 'must not contain user credentials'],
    ['https://token@example.com/', false, 'must not contain user credentials'],
    [`https://example.com/${'a'.repeat(2048)}`, false, 'must be at most 2048 characters'],
  ])('refuses %s (https required: %s)', (raw, requireHttps, problem) => {
    expect(parseWebhookUrl(raw, requireHttps)).toBe(problem);
  });
});
