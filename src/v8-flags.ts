import { setFlagsFromString } from 'node:v8';

// Garbage-collector settings for this service's allocation pattern, measured in docs/benchmarks.md ("The heap's
// growth capped", "Allocation-site pretenuring off: the read tail"). This module is
// main.ts's first import, so they apply before the framework loads and before V8 has made any decision they change.
// A flag given on the node command line (either polarity, e.g. `--allocation-site-pretenuring`) wins.

export const V8_FLAGS = [
  /**
   * V8 lets the old generation grow up to four times what survived the last full collection before collecting
   * again. Under load this service's heap is mostly short-lived garbage, so the default let resident memory grow
   * by half for nothing; capping growth at 2x kept it down at the same throughput. Read at every collection.
   */
  '--heap-growing-percent=100',
  /**
   * V8 allocates objects straight in the old generation when most objects from the same allocation site have
   * survived collections ("pretenuring"). It does so for Node's `Timeout` objects, which all come from one site
   * where long-lived timers (keep-alive, pools, metrics) dominate. A short-lived timer whose closure holds a
   * request's objects (pg's per-query read timeout did, before DeadlineClient replaced it) is then born old and
   * keeps them alive through every young collection until the next full one, long after the request ended: young
   * pauses several times longer and the read tail with them. Without pretenuring, objects are born young and die
   * young.
   */
  '--no-allocation-site-pretenuring',
];

const flagName = (arg: string): string => arg.split('=')[0].replace(/_/g, '-').replace(/^--(no-)?/, '');

/** The flags of `V8_FLAGS` that the command line (`execArgv`) does not set either way. */
export function flagsToSet(execArgv: readonly string[], flags: readonly string[] = V8_FLAGS): string[] {
  const given = new Set(execArgv.filter((arg) => arg.startsWith('--')).map(flagName));
  return flags.filter((flag) => !given.has(flagName(flag)));
}

for (const flag of flagsToSet(process.execArgv)) setFlagsFromString(flag);
