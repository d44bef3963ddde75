import type { IncomingMessage } from 'node:http';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TraceParent } from './trace-context';
import { StartedSpan, Tracing } from './tracing';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's trace (traceRequests): what the spans and receiver calls made for it continue. */
    trace: TraceParent;
  }
}

/** The trace begun as the request arrived, kept on the raw request (Fastify's request object comes later). */
const STARTED = Symbol('started span');
type TracedMessage = IncomingMessage & { [STARTED]?: StartedSpan };

/**
 * Where a request's logger finds its trace: a function on the child logger, called by the log mixin
 * (logging.ts) only when a line is written, so a request that logs nothing costs nothing here.
 */
export const LOGGER_TRACE = Symbol.for('action-gateway.logger-trace');
export type TracedLogger = { [LOGGER_TRACE]?: () => TraceParent };

/**
 * Every request has a trace, whose `trace_id` and `span_id` every line it logs carries, "incoming request" and
 * "request completed" included. When tracing records, it is the SERVER span begun as the request arrives, ended
 * with the answer; when not, the caller's trace context or a new one, made only when first needed (a log line,
 * a receiver's call).
 */
export function traceRequests(fastify: FastifyInstance, tracing: Tracing): void {
  const traceOf = (raw: TracedMessage): StartedSpan => (raw[STARTED] ??= tracing.startRequest(raw.headers, raw.method ?? 'GET', '', raw.url));
  fastify.decorateRequest('trace', {
    getter(this: FastifyRequest): TraceParent {
      return traceOf(this.raw).trace;
    },
  });
  // Before any route is registered (app.init()), which is when Fastify takes the factory for each route.
  fastify.setChildLoggerFactory((logger, bindings, options, raw) => {
    const child = logger.child(bindings, options) as typeof logger & TracedLogger;
    if (tracing.recording) (raw as TracedMessage)[STARTED] = tracing.startRequest(raw.headers, raw.method ?? 'GET', String(bindings.reqId), raw.url);
    child[LOGGER_TRACE] = () => traceOf(raw as TracedMessage).trace;
    return child;
  });
  if (!tracing.recording) return;
  fastify.addHook('onRequest', (request, _reply, done) => {
    tracing.noteArrival(request.arrivedAt, request.trace);
    done();
  });
  const finish = (request: FastifyRequest, status: number) => {
    const raw = request.raw as TracedMessage;
    const started = raw[STARTED];
    tracing.forgetArrival(request.arrivedAt);
    if (!started?.span) return;
    tracing.finishRequest(started, request.method, request.routeOptions.url, status);
    // Ended once, whichever comes first; the trace stays for what still runs (an execution after an abort).
    raw[STARTED] = { trace: started.trace };
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
