import { fullFormats } from 'ajv-formats/dist/formats';
import { FORMATS_WITHOUT_LINEAR_CHECK, linearFormats } from './schema-formats';

const check = (format: unknown, text: string): boolean =>
  typeof format === 'function' ? Boolean(format(text)) : format instanceof RegExp ? format.test(text) : typeof format === 'object' && format !== null ? check((format as { validate: unknown }).validate, text) : format === true;

const SAMPLES = [
  '', 'a', 'A', 'P1Y2M3DT4H5M6S', 'P1W', 'PT', 'P', '2024-02-29', '2023-02-29', '12:30:00Z', '2024-01-31T12:30:00.5+01:00', '23:59:60Z',
  'https://example.com/a?b=c#d', 'http://[::1]:80/', 'mailto:a@b.c', 'a:b', '//example.com', '/path/to', 'a b', 'foo@example.com',
  'Foo.Bar@Example.COM', 'a@b', 'a@-b.com', 'example.com', 'EXAMPLE.com.', '-bad.com', 'a'.repeat(64) + '.com', `${'a.'.repeat(127)}a`,
  `${'a.'.repeat(127)}a.`, '127.0.0.1', '256.1.1.1', '::1', '2001:db8::1', '1:2:3:4:5:6:7:8', '::ffff:1.2.3.4', '12345::', 'urn:uuid:6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  '6BA7B810-9DAD-11D1-80B4-00C04FD430C8', '', '/a~0b/c~1d', '/a~2', '0/a', '1#', '#/a/%25', '#a', 'http://example.com/{id}', '{+path}/x', '{bad',
  'QUJD', 'QUJ=', 'QQ==', 'Q', '\u00e9', 'é.com', '😀', 'a\nb',
];

describe('linearFormats', () => {
  const { formats, weights } = linearFormats();

  it('gives every format the verdict ajv-formats gives', () => {
    for (const [name, original] of Object.entries(fullFormats)) {
      for (const sample of SAMPLES) expect([name, sample, check(formats[name], sample)]).toEqual([name, sample, check(original, sample)]);
    }
  });

  it('runs the expressions on RE2 and weighs them by program size', () => {
    expect(formats.email).not.toBe(fullFormats.email);
    expect(weights.email).toBeGreaterThan(10);
    expect(formats.url).toBe(fullFormats.url);
    expect(FORMATS_WITHOUT_LINEAR_CHECK.has('url')).toBe(true);
  });

  // Linear time shows as a check of 100,000 hostile characters taking milliseconds (the worst, json-pointer, about
  // 100 ms here); a quadratic one (url) takes seconds, an exponential one forever. The bound is generous, and on the
  // CPU time the check used: time this process spent waiting for a loaded machine's cores is not the check's.
  it('checks long hostile strings in every format (url aside) in linear time', () => {
    const hostile = ['::', ':@', 'a-', 'a.', '%20', '/', '1', 'a', '0:'].flatMap((unit) => ['', 'http://', 'a@', 'P', '#', 'a://[', '[', '/'].map((prefix) => `${prefix}${unit.repeat(50_000)}!`));
    for (const name of Object.keys(formats)) {
      if (FORMATS_WITHOUT_LINEAR_CHECK.has(name)) continue;
      for (const text of hostile) {
        const started = process.cpuUsage();
        check(formats[name], text);
        const used = process.cpuUsage(started);
        expect([name, text.slice(0, 12), (used.user + used.system) / 1_000 < 1_000]).toEqual([name, text.slice(0, 12), true]);
      }
    }
  });
});
