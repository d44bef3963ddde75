import { keysAsWritten, recordKeyOrder } from './json-key-order';

const read = (text: string) => {
  const value = JSON.parse(text) as Record<string, unknown>;
  recordKeyOrder(text, value);
  return value;
};

describe('keysAsWritten (the written order of keys JavaScript moves first)', () => {
  it('gives the written order of an object with integer-like keys, where JavaScript lists them first', () => {
    const value = read('{"b":1,"10":2,"a":3,"2":4}');
    expect(Object.keys(value)).toEqual(['2', '10', 'b', 'a']);
    expect(keysAsWritten(value)).toEqual(['b', '10', 'a', '2']);
  });

  it('records every object at any depth, in arrays too, with whitespace and escaped keys', () => {
    const value = read(' { "list" : [ {"z":0, "1":1}, 5, {"3":0,"c":{"9":"}","x":"[{"}} ], "\\u0031" : 2, "k\\"":{"0":0}} ');
    const list = value.list as Array<Record<string, unknown>>;
    expect(keysAsWritten(list[0])).toEqual(['z', '1']);
    expect(keysAsWritten(list[2])).toEqual(['3', 'c']);
    expect(keysAsWritten(list[2].c as object)).toEqual(['9', 'x']);
    expect(keysAsWritten(value)).toEqual(['list', '1', 'k"']);
  });

  it('keeps a repeated key in its first place with its last value, as JSON.parse and Python do', () => {
    const value = read('{"b":{"2":0,"a":0},"1":0,"b":{"a":1,"3":1}}');
    expect(keysAsWritten(value)).toEqual(['b', '1']);
    expect(keysAsWritten(value.b as object)).toEqual(['a', '3']); // the value kept is the last one, in its order
  });

  it('leaves objects without such keys, keys beyond an array index, and a changed object in JavaScript order', () => {
    expect(keysAsWritten(read('{"b":1,"a":2}'))).toEqual(['b', 'a']);
    const large = read('{"b":1,"4294967295":2,"01":3}'); // not array indexes: JavaScript keeps them in place
    expect(keysAsWritten(large)).toEqual(['b', '4294967295', '01']);
    const changed = read('{"b":1,"1":2}');
    changed.c = 3;
    expect(keysAsWritten(changed)).toEqual(['1', 'b', 'c']);
  });

  it('walks a text nested 50,000 deep without recursing', () => {
    const deep = `${'{"a":'.repeat(50_000)}{"1":0,"z":0}${'}'.repeat(50_000)}`;
    let value: unknown = read(deep);
    for (let depth = 0; depth < 50_000; depth++) value = (value as Record<string, unknown>).a;
    expect(keysAsWritten(value as object)).toEqual(['1', 'z']); // already JavaScript's order
  });
});

describe('recordKeyOrder (what the quick test lets through)', () => {
  it('sees a key of digits written with escapes', () => {
    const text = '{"b":1,"\\u0031\\u0030":2}';
    const value = JSON.parse(text) as object;
    recordKeyOrder(text, value);
    expect(keysAsWritten(value)).toEqual(['b', '10']);
  });

  it('follows a repeated key whose earlier value nests deeper than its last one', () => {
    const text = '{"1":0,"a":[[[{"2":1,"b":2}]]],"a":2,"c":{"3":{"x":1}},"c":[]}';
    const value = JSON.parse(text) as Record<string, unknown>;
    recordKeyOrder(text, value);
    expect(keysAsWritten(value)).toEqual(['1', 'a', 'c']);
    expect(value).toEqual({ 1: 0, a: 2, c: [] });
  });
});
