import { parseWebhookUrl } from './webhook-url';

describe('parseWebhookUrl', () => {
  it.each(['https://hooks.example.com/v2/run?x=1', 'http://127.0.0.1:8080/hook', 'https://[2606:4700::1]/'])('accepts %s', (raw) => {
    expect(parseWebhookUrl(raw, false)).toBeInstanceOf(URL);
  });

  it.each([
    ['hooks.example.com/run', false, 'must be an absolute http or https URL'],
    ['ftp://example.com/', false, 'must be an absolute http or https URL'],
    ['javascript:alert(1)', false, 'must be an absolute http or https URL'],
    ['file:///etc/passwd', false, 'must be an absolute http or https URL'],
    ['http://example.com/', true, 'must use https'],
    ['https://user:secret@example.com/', false, 'must not contain user credentials'],
    ['https://token@example.com/', false, 'must not contain user credentials'],
    [`https://example.com/${'a'.repeat(2048)}`, false, 'must be at most 2048 characters'],
  ])('refuses %s (https required: %s)', (raw, requireHttps, problem) => {
    expect(parseWebhookUrl(raw, requireHttps)).toBe(problem);
  });
});
