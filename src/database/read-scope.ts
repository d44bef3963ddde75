import { performance } from 'node:perf_hooks';

/**
 * How fresh a read from memory must be (ReadModel.inSync): it must hold everything acknowledged before this
 * moment, on `performance.now()`'s clock. A request's reads pass the request's arrival (`request.arrivedAt`), so
 * that the one version read started as it arrived serves all of them; a caller without a request (an admin
 * backend calling a service) passes nothing and reads what is current as of its call. Passed as an argument
 * rather than kept in an AsyncLocalStorage, which on Node 20 turns on promise hooks for every promise of the
 * process (docs/benchmarks.md, "Reads from memory").
 */
export type AsOf = number;

/** `asOf`, or now: what a call without a request (or without a time: 0) reads. */
export function asOfCall(asOf?: AsOf): AsOf {
  return asOf !== undefined && asOf > 0 ? asOf : performance.now();
}
