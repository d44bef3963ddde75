import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { recordKeyOrder } from '../common/json-key-order';
import { inexactNumbers, recordNumberLiterals } from '../common/json-numbers';
import { itIf, python3Command } from '../../test/support/requirements';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it.each([
    [{ a: 1, b: [true, false, null] }, '{"a":1,"b":[true,false,null]}'],
    ['héllo', '"h\\u00e9llo"'],
    ['😀', '"\\ud83d\\ude00"'],
    ['\ud800', '"\\ud800"'],
    ['tab\there\nnew "q" \\ /', '"tab\\there\\nnew \\"q\\" \\\\ /"'],
    ['\u0000\u001f\u007f', '"\\u0000\\u001f\\u007f"'],
    [1e21, '1000000000000000000000'],
    // A JavaScript number that is integral, with no literal recorded, is an int: the digits of its shortest form.
    [1e23, `1${'0'.repeat(23)}`],
    [2 ** 64, '18446744073709552000'],
    [-1.7976931348623157e308, `-17976931348623157${'0'.repeat(292)}`],
    [-0, '0'],
    [0.1, '0.1'],
    [1.5e-7, '1.5e-07'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [-2.5e-300, '-2.5e-300'],
    [123.456, '123.456'],
    [{ '2': 'b', '1': 'a', z: {} }, '{"1":"a","2":"b","z":{}}'],
  ])('serializes %j as Python would', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  describe('numbers as the caller wrote them (recorded by json-numbers when the body was read)', () => {
    const read = (text: string): Record<string, unknown> => {
      const value = JSON.parse(text) as Record<string, unknown>;
      recordNumberLiterals(text, value);
      return value;
    };

    it('writes integers beyond 2^53 back digit for digit, wherever they are', () => {
      const text = '{"id":9007199254740993,"nested":{"list":[1,12345678901234567890,{"x":-98765432109876543210123456789}]},"fine":2}';
      expect(canonicalJson(read(text))).toBe(text);
    });

    it('writes fractions and exponents a float holds in Python\'s spelling, integral ones as floats', () => {
      expect(canonicalJson(read('{"a":0.30000000000000004,"b":1e23,"c":1.5E+300,"d":-0.0,"e":2.50,"f":1e-7,"g":100e-2}'))).toBe(
        '{"a":0.30000000000000004,"b":1e+23,"c":1.5e+300,"d":-0.0,"e":2.5,"f":1e-07,"g":1.0}',
      );
      // Where Python switches to an exponent: from 1e16 up. Integers stay integers, however they compare.
      expect(canonicalJson(read('[1.0,1,0.0,-0,-5.00,1E+2,0e0,1e15,1e16,9999999999999998.0,123456789.0e-3,[2.0,{"x":3.00}]]'))).toBe(
        '[1.0,1,0.0,0,-5.0,100.0,0.0,1000000000000000.0,1e+16,9999999999999998.0,123456.789,[2.0,{"x":3.0}]]',
      );
    });

    it('follows JSON.parse on repeated keys: the last value counts', () => {
      expect(canonicalJson(read('{"a":12345678901234567890,"a":1}'))).toBe('{"a":1}');
      expect(canonicalJson(read('{"a":1,"a":12345678901234567890}'))).toBe('{"a":12345678901234567890}');
      expect(canonicalJson(read('{"a":{"b":12345678901234567890},"a":{"b":2}}'))).toBe('{"a":{"b":2}}');
      // An object shaped like the exact reading's own record of a literal does not stand in for it.
      expect(canonicalJson(read('{"a":{"text":"9007199254740993"},"a":9007199254740993}'))).toBe('{"a":9007199254740993}');
      expect(canonicalJson(read('{"a":{"text":"1.0"},"a":1.0,"b":{},"b":2.0}'))).toBe('{"a":1.0,"b":2.0}');
      expect(canonicalJson(read('{"a":1.0,"a":{"text":"1.0"}}'))).toBe('{"a":{"text":"1.0"}}');
    });

    it('writes a value changed after reading as it now is, not as it was sent', () => {
      const value = read('{"id":12345678901234567890}');
      value.id = 5;
      expect(canonicalJson(value)).toBe('{"id":5}');
    });
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });

  // Number literals as callers write them: long integers, long fractions, exponents far out, and plain floats.
  const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
  const numberText = fc.oneof(
    fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
    fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 999_999_999 }), digits(1, 32)).map(([negative, whole, fraction]) => `${negative ? '-' : ''}${whole}.${fraction}`),
    fc.tuple(digits(1, 22), fc.integer({ min: -340, max: 300 })).map(([mantissa, exponent]) => `${mantissa.replace(/^0+(?=\d)/, '')}e${exponent}`),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  );

  itIf(python3Command())('forwards a caller\'s number with the value Python reads in it, or reports it: cross-checked with Python\'s decimal', () => {
    const texts = [
      ...fc.sample(numberText, { numRuns: 600, seed: 1122 }),
      '9007199254740993', '-0', '0.0', '1e23', '1E+23', '0.1', '0.10000000000000001', '5e-324', '2e-324', '1e-400', '123456789012345678901234567890',
      '1.0', '-0.0', '100e-2', '1e15', '1e16', '9999999999999998.0', '1.7976931348623157e308', '-4.000',
    ].filter((text) => Number.isFinite(Number(text))); // beyond a float's range the body is refused before this
    const body = `{"n":[${texts.join(',')}]}`;
    const value = JSON.parse(body);
    recordNumberLiterals(body, value);
    const refused = new Set(inexactNumbers(value.n, 'n').map((line) => Number(/^n\.(\d+):/.exec(line)?.[1])));
    const forwarded = canonicalJson(value.n).slice(1, -1).split(',');
    const lines = texts.map((text, index) => `${text} ${forwarded[index]} ${refused.has(index) ? 'refused' : 'forwarded'}`);
    // Forwarded: the same decimal value, the same value and type as Python reads in what was sent (an int or a
    // float, the sign of zero too), and a fixed point of json.loads/json.dumps (the signature verifies).
    // Refused: a float would indeed change it.
    const script = [
      'import json, sys',
      'from decimal import Decimal',
      'for line in sys.stdin.read().split("\\n"):',
      '    sent, out, verdict = line.split(" ")',
      '    if verdict == "forwarded":',
      '        ok = Decimal(sent) == Decimal(out) and repr(json.loads(sent)) == repr(json.loads(out)) and json.dumps(json.loads(out)) == out',
      '    else:',
      '        ok = Decimal(sent) != Decimal(repr(float(sent)))',
      '    if not ok: print(line)',
    ].join('\n');
    const result = spawnSync('python3', ['-c', script], { input: lines.join('\n'), encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('');
    expect(refused.size).toBeGreaterThan(50);
    expect(texts.length - refused.size).toBeGreaterThan(300);
  });
  itIf(python3Command())('is reproduced byte for byte by json.dumps(separators=(",", ":")) over a generated corpus', () => {
    const corpus = fc.sample(
      fc.jsonValue({ maxDepth: 4 }).map((value) => ({ action_name: 'probe', parameters: { value }, timestamp: 1_700_000_000 })),
      { numRuns: 400, seed: 42 },
    );
    corpus.push({ action_name: 'probe', parameters: { value: ['\ud800', '\udfff', '😀', 'é', '\u2028', 5e-324, 1.7976931348623157e308, -1e-7] }, timestamp: 1 });
    const ours = corpus.map((payload) => canonicalJson(payload));
    // Python parses each of our strings and prints it again; a fixed point means a receiver can verify it.
    const script = 'import json,sys\nfor line in sys.stdin.read().split("\\n"):\n    print(json.dumps(json.loads(line), separators=(",", ":")))';
    const result = spawnSync('python3', ['-c', script], { input: ours.join('\n'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(result.stderr).toBe('');
    expect(result.stdout.trimEnd().split('\n')).toEqual(ours);
  });
  itIf(python3Command())('forwards every number of nested bodies with repeated keys as Python reads the body', () => {
    const literal = fc.oneof(
      numberText,
      fc.constantFrom('1.0', '-0.0', '2.50', '1e23', '100e-2', '9007199254740993', '7', '-3.00', '0', '"s"', 'true', 'null'),
    );
    const tree: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        literal,
        fc.array(tie('node'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
        // Keys from a small set, so objects often repeat one, with values of any kind each time.
        fc.array(fc.tuple(fc.constantFrom('a', 'b', '1', '0'), tie('node')), { maxLength: 5 }).map(
          (members) => `{${members.map(([key, value]) => `"${key}":${value}`).join(',')}}`,
        ),
      ),
    })).node;
    const texts = fc.sample(tree.map((node) => `{"p":${node},"p":${node.replace(/(\d)\.0\b/, '$1')}}`), { numRuns: 400, seed: 2024 });
    const forwarded = texts.flatMap((text) => {
      const value = JSON.parse(text) as { p: unknown };
      recordKeyOrder(text, value);
      recordNumberLiterals(text, value);
      return inexactNumbers(value, 'body').length === 0 ? [[text, canonicalJson(value)]] : [];
    });
    expect(forwarded.length).toBeGreaterThan(200);
    const script = 'import json,sys\nfor line in sys.stdin.read().split("\\n"):\n    print(json.dumps(json.loads(line), separators=(",", ":")))';
    const result = spawnSync('python3', ['-c', script], { input: forwarded.map(([text]) => text).join('\n'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(result.stderr).toBe('');
    expect(result.stdout.trimEnd().split('\n')).toEqual(forwarded.map(([, ours]) => ours));
  });
  itIf(python3Command())('writes keys in the order the caller wrote them, integer-like ones and repeated ones as Python reads them', () => {
    const key = fc.oneof(fc.constantFrom('0', '1', '2', '10', '4294967294', '4294967295', '01', '-1', 'a', 'b', 'é'), fc.string({ maxLength: 3 }));
    const member = fc.tuple(key, fc.jsonValue({ maxDepth: 2 }));
    const texts = fc.sample(
      fc.array(fc.array(member, { maxLength: 6 }), { minLength: 1, maxLength: 3 }).map((objects) => {
        const object = (members: [string, unknown][]) => `{${members.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`;
        // An object whose last member holds the next one, so written orders are checked below the top too.
        return objects.reduceRight((inner: string, members) => object(inner ? [...members, ['9', 'x'], ['nested', inner]] as never : members), '');
      }),
      { numRuns: 300, seed: 7 },
    );
    texts.push('{"b":1,"10":2,"a":{"2":0,"1":1},"1":3,"b":4}');
    const ours = texts.map((text) => {
      const value = JSON.parse(text) as unknown;
      recordKeyOrder(text, value);
      recordNumberLiterals(text, value);
      return canonicalJson(value);
    });
    expect(ours[ours.length - 1]).toBe('{"b":4,"10":2,"a":{"2":0,"1":1},"1":3}');
    const script = 'import json,sys\nfor line in sys.stdin.read().split("\\n"):\n    print(json.dumps(json.loads(line), separators=(",", ":")))';
    const result = spawnSync('python3', ['-c', script], { input: texts.join('\n'), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    expect(result.stderr).toBe('');
    expect(result.stdout.trimEnd().split('\n')).toEqual(ours);
  });
});
