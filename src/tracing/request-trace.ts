import type { IncomingMessage } from 'node:http';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logIds, TraceParent } from './trace-context';
import { StartedSpan, Tracing } from './tracing';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's trace (traceRequests): what the spans and receiver calls made for it continue. */
    trace: TraceParent;
  }
}

/** The trace begun as the request arrived, kept on the raw request until Fastify's request object exists. */
const STARTED = Symbol('started span');
type TracedMessage = IncomingMessage & { [STARTED]?: StartedSpan };

/**
 * Every request gets its trace as it arrives, before its first log line: the SERVER span (or, when nothing is
 * recorded, the caller's trace context or a new one), whose `trace_id` and `span_id` every line the request
 * logs carries, "incoming request" and "request completed" included. The span ends with the answer.
 */
export function traceRequests(fastify: FastifyInstance, tracing: Tracing): void {
  fastify.decorateRequest('trace', null as unknown as TraceParent);
  // Before any route is registered (app.init()), which is when Fastify takes the factory for each route.
  fastify.setChildLoggerFactory((logger, bindings, options, raw) => {
    const started = tracing.startRequest(raw.headers, raw.method ?? 'GET', String(bindings.reqId));
    (raw as TracedMessage)[STARTED] = started;
    return logger.child({ ...bindings, ...logIds(started.trace) }, options);
  });
  fastify.addHook('onRequest', (request, _reply, done) => {
    const started = (request.raw as TracedMessage)[STARTED];
    request.trace = started?.trace ?? tracing.startRequest(request.headers, request.method, request.id).trace;
    if (started?.span) tracing.noteArrival(request.arrivedAt, started.trace);
    done();
  });
  if (!tracing.recording) return;
  const finish = (request: FastifyRequest, status: number) => {
    const raw = request.raw as TracedMessage;
    const started = raw[STARTED];
    if (!started) return;
    raw[STARTED] = undefined;
    tracing.forgetArrival(request.arrivedAt);
    tracing.finishRequest(started, request.method, request.routeOptions.url, status);
  };
  fastify.addHook('onResponse', (request, reply, done) => {
    finish(request, reply.statusCode);
    done();
  });
  // A client gone before its answer: the span ends now (with status 499, as proxies log it), the work goes on.
  fastify.addHook('onRequestAbort', (request, done) => {
    finish(request, 499);
    done();
  });
}

/** The request's trace, for a controller to pass to the service it calls. */
export const RequestTrace = createParamDecorator((_: unknown, context: ExecutionContext): TraceParent => context.switchToHttp().getRequest<FastifyRequest>().trace);
