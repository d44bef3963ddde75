import { analyzeSchema, fitsInline, INLINE_LIMITS, MAX_EXPANDED_NODES, MAX_SCHEMA_TEXT } from './schema-analysis';

const analyze = (schema: Record<string, unknown>) => analyzeSchema(schema, new Map());

describe('analyzeSchema', () => {
  it('keeps small schemas with local $refs on the event loop, with their expanded cost', () => {
    const schema = { type: 'object', $defs: { city: { type: 'string', minLength: 1 } }, properties: { from: { $ref: '#/$defs/city' }, to: { $ref: '#/$defs/city' } } };
    const analysis = analyze(schema);
    expect(analysis.kind).toBe('inline');
    if (analysis.kind !== 'inline') return;
    expect(analysis.cost.text).toBe(3); // minLength, counted once in $defs and once per $ref
  });

  it('weighs patterns by their RE2 program, which counted repetition multiplies', () => {
    const small = analyze({ properties: { a: { pattern: '^a$' } } });
    const repeated = analyze({ properties: { a: { pattern: '^[a-z]{500}$' } } });
    if (small.kind !== 'inline' || repeated.kind !== 'inline') throw new Error('expected inline');
    expect(repeated.cost.text).toBeGreaterThan(small.cost.text + 400);
  });

  it.each([
    ['a recursive $ref', { $defs: { n: { properties: { next: { $ref: '#/$defs/n' } } } }, $ref: '#/$defs/n' }],
    ['a recursive $ref', { properties: { a: { $ref: '#' } } }],
    ['a $ref that is not a local JSON pointer', { $ref: 'other.json' }],
    ['uses $id', { properties: { a: { $id: 'https://example.com/a', type: 'string' } } }],
    ['uses $anchor', { $defs: { a: { $anchor: 'x' } } }],
    ['uses $dynamicAnchor', { $dynamicAnchor: 'node', properties: { a: { $dynamicRef: '#node' } } }],
    ['format "url"', { properties: { a: { format: 'url' } } }],
    ['a pattern RE2 cannot run', { properties: { a: { pattern: '(?=a)a' } } }],
    [`more than ${INLINE_LIMITS.nodes} values`, { properties: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, { type: 'string' }])) }],
    [`more than ${INLINE_LIMITS.text} characters of text`, { properties: { a: { pattern: 'a'.repeat(INLINE_LIMITS.text + 1) } } }],
  ])('checks in the worker a schema with %s', (reason, schema) => {
    expect(analyze(schema)).toEqual({ kind: 'isolated', reason });
  });

  it('refuses a schema with more text than the limit', () => {
    expect(analyze({ description: 'x'.repeat(MAX_SCHEMA_TEXT) })).toEqual({ kind: 'refused', problem: `has more than ${MAX_SCHEMA_TEXT} characters of keys and strings` });
    expect(analyze({ description: 'x'.repeat(MAX_SCHEMA_TEXT - 20) }).kind).toBe('isolated');
  });

  it('refuses a schema whose $refs expand exponentially, in linear time', () => {
    const $defs: Record<string, unknown> = { d60: { type: 'string' } };
    for (let i = 0; i < 60; i++) $defs[`d${i}`] = { anyOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    expect(analyze({ $defs, $ref: '#/$defs/d0' })).toEqual({ kind: 'refused', problem: `expands to more than ${MAX_EXPANDED_NODES} values through its $refs` });
  });

  it('resolves JSON pointers with escapes', () => {
    expect(analyze({ $defs: { 'a/b': { type: 'string' }, 'c~d': { type: 'string' }, 'e f': {} }, properties: { x: { $ref: '#/$defs/a~1b' }, y: { $ref: '#/$defs/c~0d' }, z: { $ref: '#/$defs/e%20f' } } }).kind).toBe('inline');
    expect(analyze({ properties: { x: { $ref: '#/$defs/missing' } } })).toEqual({ kind: 'isolated', reason: 'a $ref the analysis does not resolve' });
  });
});

describe('fitsInline', () => {
  it('allows small parameters and sends large ones (in values or in text a keyword reads) to the worker', () => {
    expect(fitsInline({ nodes: 10, text: 0 }, { city: 'Oslo' })).toBe(true);
    expect(fitsInline({ nodes: 10, text: 0 }, { text: 'x'.repeat(1_000_000) })).toBe(true);
    expect(fitsInline({ nodes: 10, text: 100 }, { text: 'x'.repeat(1_000_000) })).toBe(false);
    expect(fitsInline({ nodes: 100, text: 0 }, { list: new Array(10_000).fill(0) })).toBe(false);
  });

  it('stops counting as soon as the budget is spent', () => {
    // Counted in reads of the array's items, not in time: refusing a million items must not visit them.
    let reads = 0;
    const huge = new Proxy(new Array(1_000_000).fill([1, 2, 3]), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(fitsInline({ nodes: 1_000, text: 0 }, huge)).toBe(false);
    expect(reads).toBe(0);
    expect(fitsInline({ nodes: 1, text: 0 }, new Proxy([1, 2, 3], {}))).toBe(true);
  });
});
