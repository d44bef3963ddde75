import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<number>();

/**
 * When the request being served arrived (performance.now()), for everything the request does after its body
 * is read: the read model serves a request from memory only once a version check that started after this time
 * says the memory is current (ReadModel.inSync), and every read of the same request can reuse that check.
 */
export const ReadScope = {
  run<T>(startedAt: number, work: () => T): T {
    return scope.run(startedAt, work);
  },

  /** The current request's arrival, or undefined outside a request (an admin backend calling a service). */
  startedAt(): number | undefined {
    return scope.getStore();
  },
};
