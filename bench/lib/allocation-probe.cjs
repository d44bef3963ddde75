// Bytes the JavaScript heap has allocated, counted in the process measured: `node -r bench/lib/allocation-probe.cjs`.
// On SIGUSR2 it writes {"allocated_bytes": n, "gcs": n} (since the process started) to ALLOCATION_PROBE_FILE.
//
// allocated = the heap used now - the heap used at the start + everything the collections since then freed, each
// collection's "used before" minus its "used after", as v8.GCProfiler reports them. No timing enters it: the same
// code serving the same requests allocates nearly the same bytes on a quiet machine and on a loaded one, which
// makes it a figure CI can gate on (bench/allocations.mjs). Buffers outside the heap are not counted.
'use strict';
const { writeFileSync } = require('node:fs');
const v8 = require('node:v8');

const file = process.env.ALLOCATION_PROBE_FILE;
if (file) {
  const startUsed = v8.getHeapStatistics().used_heap_size;
  let freed = 0;
  let gcs = 0;
  let profiler = new v8.GCProfiler();
  profiler.start();
  process.on('SIGUSR2', () => {
    // The profiler's report covers the collections since its start: take it, and start a new one.
    const report = profiler.stop();
    profiler = new v8.GCProfiler();
    profiler.start();
    for (const { beforeGC, afterGC } of report?.statistics ?? []) {
      freed += beforeGC.heapStatistics.usedHeapSize - afterGC.heapStatistics.usedHeapSize;
      gcs++;
    }
    const allocated = v8.getHeapStatistics().used_heap_size - startUsed + freed;
    writeFileSync(file, JSON.stringify({ allocated_bytes: allocated, gcs }));
  });
}
