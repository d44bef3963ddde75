import { parentPort } from 'node:worker_threads';
import { Compilation, compileSchema, ParameterCheck, runCheck } from './schema-compilation';
import { metaSchemaProblem } from './schema-ajv';

/** A job for the worker: check a schema for registration, or check parameters against a schema. */
export type WorkerRequest =
  | { id: number; kind: 'compile'; key: string; schema: Record<string, unknown> }
  | { id: number; kind: 'validate'; key: string; schema: Record<string, unknown>; parameters: unknown };

/** An answer, with how long the job ran on this thread (`ms`), which is charged to its owner's worker time. */
export type WorkerReply =
  | { id: number; kind: 'compiled'; problem?: string; ms: number }
  | { id: number; kind: 'checked'; check: ParameterCheck; ms: number }
  | { kind: 'ready' };

type Answer = DistributiveOmit<Exclude<WorkerReply, { kind: 'ready' }>, 'ms'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Compiled schemas by owner and content (SchemaSandbox's key), least recently used first out. */
const MAX_CACHED = 200;
const cache = new Map<string, Compilation>();

function compiled(key: string, schema: Record<string, unknown>): Compilation {
  let compilation = cache.get(key);
  if (compilation) {
    cache.delete(key);
  } else {
    compilation = compileSchema(schema, new Map(), true);
  }
  cache.set(key, compilation);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return compilation;
}

function handle(request: WorkerRequest): Answer {
  if (request.kind === 'compile') {
    // Kept: the executions that follow a registration check against what was compiled for it.
    const compilation = compiled(request.key, request.schema);
    return { id: request.id, kind: 'compiled', problem: compilation.ok ? undefined : compilation.problem };
  }
  const compilation = compiled(request.key, request.schema);
  if (!compilation.ok) return { id: request.id, kind: 'checked', check: { valid: false, problem: `cannot be checked: the action's json_schema no longer compiles` } };
  return { id: request.id, kind: 'checked', check: runCheck(compilation.validate, request.parameters) };
}

// Run only as a worker thread (SchemaSandbox starts it): compile both meta-schemas, say so, then serve. It runs at
// the process's own priority: a lowered one let the event loop wait seconds on locks the starved worker held, on a
// busy host (docs/decisions.md, "Bounded cost").
if (parentPort) {
  const port = parentPort;
  metaSchemaProblem('2020-12', {});
  metaSchemaProblem('draft-07', {});
  port.on('message', (request: WorkerRequest) => {
    const started = performance.now();
    let reply: Answer;
    try {
      reply = handle(request);
    } catch (error) {
      // A stack overflow in Ajv's compiler or in its generated code: an answer, not a crash.
      reply =
        request.kind === 'compile'
          ? { id: request.id, kind: 'compiled', problem: `is not a valid JSON Schema: ${(error as Error).message}` }
          : { id: request.id, kind: 'checked', check: { valid: false, problem: 'are too complex to check' } };
    }
    port.postMessage({ ...reply, ms: performance.now() - started } satisfies WorkerReply);
  });
  port.postMessage({ kind: 'ready' } satisfies WorkerReply);
}
