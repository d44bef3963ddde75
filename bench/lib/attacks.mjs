// The hostile-tenant inputs of issue 11, one per attack class: replayed by test/isolation.e2e-spec.ts (which
// checks the answers and the neighbour's latency) and by bench/isolation.mjs (which measures the neighbour).
//
// An attack registers an action with `schema` (or a plain `{type: object}` one), then, when it was accepted,
// executes it `executions` times with `parameters` (or the raw body `executeBody`) while the receiver answers
// `answer`. `register` and `execute` list the statuses allowed for it (the contract's, never a 5xx).

const range = (length, map) => Array.from({ length }, (_, i) => map(i));
const props = (length, value) => Object.fromEntries(range(length, (i) => [`p${i}`, value(i)]));

/** 600 properties each `$ref` one definition of 150 properties (issue 11: 74 s of compiling with inlining). */
function amplified(refs, defined) {
  return { type: 'object', $defs: { d: { type: 'object', properties: props(defined, () => ({ type: 'string' })) } }, properties: props(refs, () => ({ $ref: '#/$defs/d' })) };
}

/** 2^depth evaluations of one value through a chain of `allOf`s that each name the next definition twice. */
function exponentialRefs(depth) {
  const $defs = { [`d${depth}`]: { type: 'string' } };
  for (let i = 0; i < depth; i++) $defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
  return { type: 'object', $defs, properties: { a: { $ref: '#/$defs/d0' } } };
}

/** A recursive schema whose every level tries two branches that both fail on the leaf: 2^depth checks. */
const recursiveBranching = {
  type: 'object',
  $defs: { t: { anyOf: [{ type: 'array', items: { $ref: '#/$defs/t' } }, { type: 'array', minItems: 0, items: { $ref: '#/$defs/t' } }] } },
  properties: { a: { $ref: '#/$defs/t' } },
};
const nested = (depth, leaf) => range(depth, () => 0).reduce((inner) => [inner], leaf);

/** `allOf`/`anyOf`/`oneOf` nested `depth` levels deep, each level with a second branch that changes nothing. */
function deepCombinators(depth) {
  let schema = { type: 'string', minLength: 1 };
  for (let i = 0; i < depth; i++) {
    const keyword = ['allOf', 'anyOf', 'oneOf'][i % 3];
    schema = { [keyword]: keyword === 'oneOf' ? [schema, { not: {} }] : [schema, {}] };
  }
  return { type: 'object', properties: { a: schema } };
}

/** Close to 2,000 values of many kinds of keyword. */
const manyKeywords = {
  type: 'object',
  properties: props(150, (i) => ({ type: ['string', 'number', 'array', 'object'][i % 4], minLength: 1, maxLength: 50, minimum: 0, multipleOf: 1, pattern: '^[a-z0-9]+$', uniqueItems: true, minProperties: 0, format: ['email', 'date-time', 'uri', 'ipv6'][i % 4], not: { const: 'x' } })),
  required: range(100, (i) => `p${i}`),
};

export const ATTACKS = [
  {
    name: 'ref_amplification',
    summary: '20 KB json_schema: 600 properties each $ref a 150-property definition',
    schema: amplified(600, 150),
    parameters: { p1: { q1: 'x' } },
    register: [201, 400], // 400 when compiling takes longer than the worker's deadline on a loaded host
  },
  {
    name: 'ref_amplification_30kb',
    summary: '26 KB json_schema: 700 properties each $ref a 250-property definition',
    schema: amplified(700, 250),
    parameters: { p1: { q1: 'x' } },
    register: [201, 400], // 400 when compiling takes longer than the worker's deadline on a loaded host
  },
  {
    name: 'exponential_refs',
    summary: 'a chain of 40 allOf, each naming the next definition twice (2^40 checks of one value)',
    schema: exponentialRefs(40),
    register: [400],
  },
  {
    name: 'recursive_branching',
    summary: 'recursive anyOf of two failing branches, executed with arrays nested 100 deep',
    schema: recursiveBranching,
    parameters: { a: nested(100, 'leaf') },
    execute: [400],
  },
  {
    name: 'meta_schema_id_2020',
    summary: 'a json_schema whose $id is the 2020-12 meta-schema (then ordinary schemas must still register)',
    schema: { $id: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
  },
  {
    name: 'meta_schema_id_draft07',
    summary: 'a json_schema whose $id is the draft-07 meta-schema',
    schema: { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'http://json-schema.org/draft-07/schema#', type: 'object' },
  },
  {
    name: 'pattern_backtracking',
    summary: 'pattern ^(a+)+$, executed with 30 a and a !',
    schema: { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } },
    parameters: { a: `${'a'.repeat(30)}!` },
    execute: [400],
  },
  {
    name: 'pattern_backtracking_1mb',
    summary: 'pattern ^(a+)+$, executed with 1,000,000 a and a !',
    schema: { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } },
    parameters: { a: `${'a'.repeat(1_000_000)}!` },
    execute: [400],
  },
  {
    name: 'pattern_properties',
    summary: 'patternProperties ^(a+)+$, executed with a key of 30 a and a !',
    schema: { type: 'object', patternProperties: { '^(a+)+$': { type: 'string' } } },
    parameters: { [`${'a'.repeat(30)}!`]: 'x', ...Object.fromEntries(range(1000, (i) => [`${'a'.repeat(i % 40)}!${i}`, 1])) },
  },
  {
    name: 'pattern_lookahead',
    summary: 'a pattern only ECMAScript can run, ^(?=a)(a+)+$, executed with 40 a and a !',
    schema: { type: 'object', properties: { a: { type: 'string', pattern: '^(?=a)(a+)+$' } } },
    parameters: { a: `${'a'.repeat(40)}!` },
    execute: [400],
  },
  {
    name: 'format_url',
    summary: 'format url (quadratic in ajv-formats), executed with http:// and 300,000 characters',
    schema: { type: 'object', properties: { a: { type: 'string', format: 'url' } } },
    parameters: { a: `http://${':@'.repeat(150_000)}` },
    execute: [400],
  },
  {
    name: 'formats',
    summary: 'email, uri, uri-reference, hostname, date-time, ipv6 each on a 150,000-character hostile string',
    schema: { type: 'object', properties: Object.fromEntries(['email', 'uri', 'uri-reference', 'hostname', 'date-time', 'ipv6'].map((format) => [format, { type: 'string', format }])) },
    parameters: Object.fromEntries(['email', 'uri', 'uri-reference', 'hostname', 'date-time', 'ipv6'].map((format) => [format, `${'a.'.repeat(75_000)}-`])),
    execute: [400],
  },
  {
    name: 'unique_items',
    summary: 'uniqueItems, executed with 40,000 small arrays (309 KB)',
    schema: { type: 'object', properties: { a: { type: 'array', uniqueItems: true } } },
    parameters: { a: range(40_000, (i) => [i]) },
  },
  {
    name: 'unique_items_1mb',
    summary: 'uniqueItems, executed with 110,000 small arrays (about 1 MB)',
    schema: { type: 'object', properties: { a: { type: 'array', uniqueItems: true } } },
    parameters: { a: range(110_000, (i) => [i]) },
  },
  {
    name: 'huge_enum',
    summary: 'enum of 200,000 items (400 KB)',
    schema: { type: 'object', properties: { a: { enum: range(200_000, () => 0) } } },
    register: [400],
  },
  {
    name: 'large_enum_const_required',
    summary: 'enum of 300 objects, const of 300 values and 900 required names, executed with an 80,000-item array',
    schema: {
      type: 'object',
      properties: { a: { type: 'array', items: { enum: range(300, (i) => ({ k: i })) } }, b: { const: range(300, (i) => i) } },
      required: ['a'],
      // In a branch with no properties of its own: required names that properties beside them do not define are
      // refused as a mistake (schema-mistakes.ts), but the check costs the same here.
      allOf: [{ required: range(900, (i) => `r${i}`) }],
    },
    parameters: { a: range(80_000, () => ({ k: 299 })) },
    execute: [400],
  },
  {
    name: 'deep_combinators',
    summary: 'allOf/anyOf/oneOf nested 29 levels deep (64 levels of JSON, the limit), executed with a 50,000-key object',
    schema: deepCombinators(29),
    parameters: { a: 'x', ...Object.fromEntries(range(50_000, (i) => [`k${i}`, i])) },
  },
  {
    name: 'many_keywords',
    summary: '150 properties with 11 keywords each and 100 required (about 1,900 values)',
    schema: manyKeywords,
    parameters: Object.fromEntries(range(100, (i) => [`p${i}`, ['abc', 3, [1, 2], {}][i % 4]])),
    execute: [400],
    register: [201, 400], // 400 when compiling takes longer than the worker's deadline on a loaded host
  },
  {
    name: 'own_properties',
    summary: 'required: ["toString"], executed with {}',
    schema: { type: 'object', required: ['toString'] },
    parameters: {},
    execute: [400],
  },
  {
    name: 'deep_parameters',
    summary: 'parameters nested 300,000 levels deep',
    executeBody: `{"parameters":{"a":${'['.repeat(300_000)}${']'.repeat(300_000)}}}`,
    execute: [400],
  },
  {
    name: 'float_literals',
    summary: 'parameters of 260,000 floats written 1.0 (1 MB): every number needs the exact reading',
    executeBody: `{"parameters":{"a":[${Array.from({ length: 260_000 }, () => '1.0').join(',')}]}}`,
  },
  {
    name: 'deep_answer',
    summary: 'a receiver answering {"result","error"} with 1 MB of arrays nested 500,000 levels deep beside them',
    parameters: {},
    answer: `{"error":"","result":"d","a":${'['.repeat(500_000)}${']'.repeat(500_000)}}`,
  },
  {
    name: 'large_result',
    summary: 'a receiver answering a 1 MB result, executed 10 times, then the executions listed',
    parameters: {},
    answer: JSON.stringify({ result: 'x'.repeat(1_048_000), error: '' }),
    executions: 10,
  },
  {
    name: 'nul_error',
    summary: 'a receiver answering {"result":"x","error":"\\u0000"}',
    parameters: {},
    answer: '{"result":"x","error":"\\u0000"}',
  },
  {
    name: 'lone_surrogates',
    summary: 'a receiver answering lone surrogates and U+0000 in result and error',
    parameters: {},
    answer: '{"result":"\\ud800a\\u0000","error":"\\udfff"}',
  },
];

/** Statuses an attack's registration may get unless it says otherwise: these schemas are all acceptable. */
export const REGISTER_STATUSES = [201];
/** Statuses an attack's execution may get (429: the tenant has too many checks waiting in the worker). */
export const EXECUTE_STATUSES = [200, 400, 429];
