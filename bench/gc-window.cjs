// Preload for comparing garbage collection in the service and the baseline (docs/benchmarks.md, "Allocation-site
// pretenuring off: the read tail"):
//   BENCH_NODE_ARGS="--trace-gc-nvp --require ./bench/gc-window.cjs" (and BENCH_BASELINE_NODE_ARGS alike).
// Counts the HTTP requests the process receives and prints "GC-WINDOW start <count>" and "GC-WINDOW end <count>"
// on stdout, where V8 writes its --trace-gc-nvp lines, so bench/gc-report.mjs can take the collections of that
// window and divide by its requests. BENCH_GC_WINDOW="from,to" in seconds after the process started (6.5,9.5:
// inside the measured run of a single scenario, for the service and the baseline alike).
'use strict';
const { subscribe } = require('node:diagnostics_channel');

let requests = 0;
subscribe('http.server.request.start', () => {
  requests++;
});
const [from, to] = (process.env.BENCH_GC_WINDOW ?? '6.5,9.5').split(',').map(Number);
const mark = (edge) => process.stdout.write(`GC-WINDOW ${edge} ${requests}\n`);
setTimeout(() => mark('start'), from * 1000).unref();
setTimeout(() => mark('end'), to * 1000).unref();
