import { hasRecordedNumber, inexactNumbers, numberLiterals, recordNumberLiterals } from './json-numbers';

/** A body read as the service reads one that forwards its numbers. */
function read(text: string): Record<string, unknown> {
  const value = JSON.parse(text) as Record<string, unknown>;
  recordNumberLiterals(text, value);
  return value;
}

describe('number literals of forwarded bodies', () => {
  it('records nothing when every number is one a JavaScript number holds (the common case costs one regex test)', () => {
    const value = read('{"a":1.5,"b":-123,"c":[0.1,1e-7,9007199254740991],"d":"12345678901234567890"}');
    expect(numberLiterals(value)).toBeUndefined();
    expect(numberLiterals(value.c as object)).toBeUndefined();
    expect(inexactNumbers(value, 'parameters')).toEqual([]);
  });

  it('keeps the digits of integers beyond 2^53, wherever they are, beside the JavaScript view', () => {
    const value = read('{"id":9007199254740993,"nested":{"list":[1,12345678901234567890,{"x":-98765432109876543210123456789}]},"fine":2}');
    expect(value.id).toBe(9007199254740992); // the JavaScript view, which validation sees
    expect([...(numberLiterals(value) ?? [])]).toEqual([['id', { value: 9007199254740992, forward: '9007199254740993' }]]);
    const list = (value.nested as { list: [number, number, { x: number }] }).list;
    expect([...(numberLiterals(list) ?? [])]).toEqual([['1', { value: Number('12345678901234567890'), forward: '12345678901234567890' }]]);
    expect(numberLiterals(list[2])?.get('x')).toEqual({ value: Number('-98765432109876543210123456789'), forward: '-98765432109876543210123456789' });
    // Only a literal that cannot be forwarded marks the containers on its way (for inexactNumbers).
    expect(numberLiterals(value.nested as object)).toBeUndefined();
    const refused = read('{"nested":{"list":[1,{"x":1e-400}]},"other":[1.0]}');
    expect(numberLiterals(refused.nested as object)).toEqual(new Map());
    expect(numberLiterals((refused.nested as { list: object }).list)).toEqual(new Map());
    expect(inexactNumbers(refused, 'p')).toEqual(['p.nested.list.1.x: cannot be forwarded exactly: a 64-bit float makes it 0 (send such a number as a string)']);
    expect(inexactNumbers(value, 'parameters')).toEqual([]);
  });

  it('records nothing for fractions and exponents whose value is the float\'s own shortest form, but marks integral ones as floats', () => {
    const value = read('{"a":0.30000000000000004,"b":1e23,"c":1.5E+300,"d":-0.0,"e":2.50,"f":1e-7,"g":100e-2,"h":12345678.12345678}');
    expect([...(numberLiterals(value) ?? [])]).toEqual([
      ['b', { value: 1e23, float: true }],
      ['c', { value: 1.5e300, float: true }],
      ['d', { value: -0, float: true }],
      ['g', { value: 1, float: true }],
    ]);
    expect(inexactNumbers(value, 'parameters')).toEqual([]);
    expect(numberLiterals(read('{"a":0.30000000000000004,"e":2.50,"f":1e-7,"h":12345678.12345678}'))).toBeUndefined();
  });

  it('records a float whose fraction is all zeros', () => {
    expect([...(numberLiterals(read('{"a":[1.0],"b":"v2.5"}').a as object) ?? [])]).toEqual([['0', { value: 1, float: true }]]);
    expect([...(numberLiterals(read('{"a":[1.00,7]}').a as object) ?? [])]).toEqual([['0', { value: 1, float: true }]]);
    expect(numberLiterals(read('{"a":[1.05,2,3.5],"b":"1.0x"}').a as object)).toBeUndefined();
  });

  it('reads a body again only for a number outside its strings that needs it', () => {
    for (const text of ['{"a":1.0}', '{"a":[2,-3.00]}', '{"a":1e5}', '{"a":1E-2}', '{"a":12345678901234567}', '{"a":1234567.890123456}', '{"s":"\\"","a":1.0}']) {
      expect([text, hasRecordedNumber(text)]).toEqual([text, true]);
    }
    const inStrings = ['{"jsonrpc":"2.0","id":1}', '{"ip":"10.0.0.1","v":"1e5","n":"12345678901234567"}', '{"s":"a\\"1.0","n":-1.05}', '{"a":[1,2.5,-0,100]}'];
    for (const text of inStrings) expect([text, hasRecordedNumber(text)]).toEqual([text, false]);
  });

  it('names every number a float would change, with what it would become', () => {
    const value = read(
      '{"parameters":{"price":0.100000000000000000000000000001,"tiny":1e-400,"list":[1,0.10000000000000001,{"pi":3.14159265358979323846}],"ok":0.5}}',
    );
    expect(inexactNumbers(value.parameters, 'parameters')).toEqual([
      'parameters.price: cannot be forwarded exactly: a 64-bit float makes it 0.1 (send such a number as a string)',
      'parameters.tiny: cannot be forwarded exactly: a 64-bit float makes it 0 (send such a number as a string)',
      'parameters.list.1: cannot be forwarded exactly: a 64-bit float makes it 0.1 (send such a number as a string)',
      'parameters.list.2.pi: cannot be forwarded exactly: a 64-bit float makes it 3.141592653589793 (send such a number as a string)',
    ]);
  });

  it('stops at the limit it is given: a level\'s own numbers first, then its children in the order they were written', () => {
    const value = read(`{"p":{"a":[${Array.from({ length: 200_000 }, () => '1e-400').join(',')}],"b":1e-400}}`);
    const first = inexactNumbers(value.p, 'p', 3);
    expect(first.map((line) => line.split(':')[0])).toEqual(['p.b', 'p.a.0', 'p.a.1']);
    expect(inexactNumbers(value.p, 'p')).toHaveLength(200_001);
  });

  it('follows JSON.parse on repeated keys: the last value counts', () => {
    expect(numberLiterals(read('{"a":12345678901234567890,"a":1}'))).toBeUndefined();
    expect(numberLiterals(read('{"a":1,"a":12345678901234567890}'))?.get('a')?.forward).toBe('12345678901234567890');
    expect(inexactNumbers(read('{"a":1e-400,"a":1}'), 'p')).toEqual([]);
  });

  it('reads any depth without recursion', () => {
    const depth = 20_000;
    const text = `${'['.repeat(depth)}12345678901234567890${']'.repeat(depth)}`;
    let innermost = JSON.parse(text) as unknown[];
    recordNumberLiterals(text, innermost);
    for (let level = 1; level < depth; level++) innermost = innermost[0] as unknown[];
    expect(numberLiterals(innermost)?.get('0')?.forward).toBe('12345678901234567890');
  });

  it('keeps the last occurrence of a repeated key, whatever the earlier ones held', () => {
    const value = read('{"a":[1.0,2.0],"a":[1,2.0],"b":{"x":1e-400},"b":{"y":1},"c":1.0,"c":"s","d":{"e":1.0},"d":[1.0]}');
    expect(numberLiterals(value.a as object)?.get('0')).toBeUndefined();
    expect(numberLiterals(value.a as object)?.get('1')).toEqual({ value: 2, float: true });
    expect(inexactNumbers(value, 'p')).toEqual([]);
    expect(numberLiterals(value.d as object)?.get('0')).toEqual({ value: 1, float: true });
  });
});
