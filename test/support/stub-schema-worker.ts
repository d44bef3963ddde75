// A stand-in for src/actions/schema/schema-worker.ts in the tests of SchemaSandbox's scheduling: a job runs for the
// `sleep_ms` its parameters name, or until the test sets the first Int32 of the SharedArrayBuffer its `hold` names
// (holding its thread either way, as a check does; the second Int32 counts the held jobs that started), and its
// answer's `problem` says when it started and ended on this thread (epoch ms, JSON), so a test can tell which job
// was given a worker when.
import { parentPort } from 'node:worker_threads';
import type { WorkerReply, WorkerRequest } from '../../src/actions/schema/schema-worker';

const held = new Int32Array(new SharedArrayBuffer(4));

if (parentPort) {
  const port = parentPort;
  port.on('message', (request: WorkerRequest) => {
    const started = Date.now();
    const { sleep_ms: sleepMs = 0, hold } = request.kind === 'validate' ? (request.parameters as { sleep_ms?: number; hold?: SharedArrayBuffer }) : {};
    if (hold) {
      const shared = new Int32Array(hold);
      Atomics.add(shared, 1, 1);
      Atomics.wait(shared, 0, 0);
    } else {
      Atomics.wait(held, 0, 0, sleepMs);
    }
    const ms = Date.now() - started;
    const problem = JSON.stringify({ started, ended: Date.now() });
    const reply: WorkerReply =
      request.kind === 'compile' ? { id: request.id, kind: 'compiled', problem, ms } : { id: request.id, kind: 'checked', check: { valid: false, problem }, ms };
    port.postMessage(reply);
  });
  port.postMessage({ kind: 'ready' } satisfies WorkerReply);
}
