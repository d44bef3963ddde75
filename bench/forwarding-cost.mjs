// `npm run build && node bench/forwarding-cost.mjs`: what reading and writing an execution's parameters costs the
// event loop for a 1 MB body, by how its keys and numbers are written.
//
// For each body shape: JSON.parse, the written key order (src/common/json-key-order.ts; it reads nothing unless a
// key of digits appears), the number literals (src/common/json-numbers.ts), and the webhook body's canonical JSON
// (src/webhooks/canonical-json.ts), which follows both. Medians of BENCH_RUNS runs (15), each on a fresh parse.
// Figures go in docs/decisions.md ("Executions", the forwarded key order).
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, round } from './lib/common.mjs';

const project = createRequire(import.meta.url);
const { recordKeyOrder } = project(join(ROOT, 'dist/src/common/json-key-order.js'));
const { recordNumberLiterals } = project(join(ROOT, 'dist/src/common/json-numbers.js'));
const { canonicalJson } = project(join(ROOT, 'dist/src/webhooks/canonical-json.js'));

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const MB = 1_048_576;
/** `{"parameters":[item,item,...]}`, as many items as fit in 1 MB. */
const body = (item) => `{"parameters":{"a":[${Array.from({ length: Math.floor((MB - 40) / (item.length + 1)) }, () => item).join(',')}]}}`;
const SHAPES = [
  ['named keys only', body('{"b":0,"c":0}')],
  ['digit keys in JavaScript order', body('{"1":0,"b":0}')],
  ['a digit key after a named one (every object reordered)', body('{"b":0,"1":0}')],
  // Every number needs the exact reading (a float with a fraction of zeros), all alike or all different.
  ['floats written 1.0', body('1.0')],
  ['floats written 1.0, 2.0, 3.0, ...', `{"parameters":{"a":[${Array.from({ length: 150_000 }, (_, i) => `${i}.0`).join(',')}]}}`],
  ['floats written 1.0, each in two arrays', body('[[1.0]]')],
  ['fractions 1.5', body('1.5')],
];

const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
const timed = (work) => {
  const start = performance.now();
  work();
  return performance.now() - start;
};

console.log(`node ${process.version}, ${RUNS} runs each, medians in ms, bodies of 1 MB`);
console.log(['shape', 'JSON.parse', 'key order', 'number literals', 'canonical JSON'].join(' | '));
for (const [name, text] of SHAPES) {
  const times = { parse: [], order: [], numbers: [], write: [] };
  for (let run = 0; run < RUNS; run++) {
    let value;
    times.parse.push(timed(() => (value = JSON.parse(text))));
    times.order.push(timed(() => recordKeyOrder(text, value)));
    times.numbers.push(timed(() => recordNumberLiterals(text, value)));
    times.write.push(timed(() => canonicalJson({ action_name: 'bench', parameters: value.parameters, timestamp: 1 })));
  }
  console.log([name, ...Object.values(times).map((each) => round(median(each), 1))].join(' | '));
}
