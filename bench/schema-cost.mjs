// `npm run build && node bench/schema-cost.mjs`: what the most expensive checks allowed on the event loop take.
//
// A parameter check runs on the event loop only when its estimated cost (SchemaCost × the parameters' size,
// src/actions/schema/schema-analysis.ts) is within INLINE_LIMITS.cost; past it, it runs in the worker. For schemas
// built to be as slow per unit as possible (each keyword family that reads a lot), this grows the parameters until
// they are just within the budget, then times the check on this thread. The largest time is the longest the
// event loop can be held by one check. Figures go in docs/decisions.md ("Bounded cost").
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, round } from './lib/common.mjs';

const project = createRequire(import.meta.url);
const { JsonSchemaCompiler } = project(join(ROOT, 'dist/src/actions/json-schema-compiler.js'));
const { SchemaSandbox } = project(join(ROOT, 'dist/src/actions/schema/schema-sandbox.js'));
const { fitsInline, INLINE_LIMITS } = project(join(ROOT, 'dist/src/actions/schema/schema-analysis.js'));
const { runCheck } = project(join(ROOT, 'dist/src/actions/schema/schema-compilation.js'));

const range = (length, map) => Array.from({ length }, (_, i) => map(i));
const SCENARIOS = [
  { name: 'pattern \\p{L} on long strings', schema: { type: 'object', properties: { a: { type: 'array', items: { type: 'string', pattern: '^\\p{L}+[0-9]$' } } } }, data: (n) => ({ a: [`${'é'.repeat(n)}!`] }) },
  { name: '12 patterns on every item', schema: { type: 'object', properties: { a: { type: 'array', items: { allOf: range(12, (i) => ({ pattern: `^(a|b)*${i}(c|d)+$` })) } } } }, data: (n) => ({ a: range(n, () => 'ababababab') }) },
  { name: 'uri-template and email on a long string', schema: { type: 'object', properties: { a: { type: 'string', format: 'uri-template' }, b: { type: 'string', format: 'email' } } }, data: (n) => ({ a: `${'{a'.repeat(n)}`, b: `${'a.'.repeat(n)}-` }) },
  { name: 'uniqueItems over small arrays', schema: { type: 'object', properties: { a: { type: 'array', uniqueItems: true } } }, data: (n) => ({ a: range(n, (i) => [i, { k: i }]) }) },
  { name: 'enum of 40 objects on every item', schema: { type: 'object', properties: { a: { type: 'array', items: { enum: range(40, (i) => ({ k: i, v: [i] })) } } } }, data: (n) => ({ a: range(n, () => ({ k: 39, v: [39] })) }) },
  { name: 'anyOf of 40 failing branches on every item', schema: { type: 'object', properties: { a: { type: 'array', items: { anyOf: [...range(40, (i) => ({ type: 'string', minLength: i + 100 })), { type: 'string' }] } } } }, data: (n) => ({ a: range(n, () => 'x') }) },
  { name: 'patternProperties on many keys', schema: { type: 'object', patternProperties: Object.fromEntries(range(8, (i) => [`^k(a|b)*${i}$`, { type: 'number' }])) }, data: (n) => Object.fromEntries(range(n, (i) => [`kabab${i}`, i])) },
  { name: 'required of 150 names on many objects', schema: { type: 'object', properties: { a: { type: 'array', items: { type: 'object', required: range(150, (i) => `r${i}`) } } } }, data: (n) => ({ a: range(n, () => Object.fromEntries(range(150, (i) => [`r${i}`, 1]))) }) },
];

const sandbox = new SchemaSandbox();
const compiler = new JsonSchemaCompiler(sandbox);
const rows = [];
for (const scenario of SCENARIOS) {
  const prepared = compiler.prepare(scenario.schema);
  if (prepared.kind !== 'inline') throw new Error(`${scenario.name}: expected an inline schema, got ${prepared.kind}`);
  let size = 1;
  while (fitsInline(prepared.cost, scenario.data(size * 2))) size *= 2;
  let step = size / 2;
  while (step >= 1) {
    if (fitsInline(prepared.cost, scenario.data(size + step))) size += step;
    step = Math.floor(step / 2);
  }
  const data = scenario.data(size);
  const times = [];
  for (let i = 0; i < 7; i++) {
    const started = performance.now();
    runCheck(prepared.validate, data);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  rows.push({ scenario: scenario.name, cost: prepared.cost, size, median_ms: round(times[3], 2), max_ms: round(times[6], 2) });
}
await sandbox.onApplicationShutdown();
console.log(`inline budget: ${INLINE_LIMITS.cost} units\n`);
console.log('| schema | its cost (nodes / text) | parameters size used | check median ms | max ms |');
console.log('|---|---|---|---|---|');
for (const row of rows) console.log(`| ${row.scenario} | ${row.cost.nodes} / ${row.cost.text} | ${row.size} | ${row.median_ms} | ${row.max_ms} |`);
