import { randomFillSync } from 'node:crypto';
import { Context, createTraceState, isSpanContextValid, ROOT_CONTEXT, SpanContext, trace, TraceFlags } from '@opentelemetry/api';

/**
 * Where a piece of work sits in its request's trace: an OpenTelemetry `Context` holding the span to start
 * children under (the request's span, an attempt's), or, when nothing is recorded, the span context passed on to
 * receivers. Passed as an argument, like a request's arrival (AsOf), never kept in an AsyncLocalStorage: on
 * Node 20 that turns on promise hooks for every promise of the process (docs/decisions.md, "Tracing").
 */
export type TraceParent = Context;

/** W3C Trace Context version 00 (https://www.w3.org/TR/trace-context/#traceparent-header). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The span context a `traceparent` (and `tracestate`) header carries, or undefined when it is absent or invalid
 * (then a new trace begins). A later version's extra fields are ignored, as the specification asks; version ff
 * and all-zero ids are invalid. `tracestate` is kept within the specification's bounds (32 entries, 512
 * characters), or dropped.
 */
export function parseTraceParent(traceparent: string | string[] | undefined, tracestate: string | string[] | undefined): SpanContext | undefined {
  const text = Array.isArray(traceparent) ? (traceparent.length === 1 ? traceparent[0] : undefined) : traceparent;
  const match = text === undefined ? null : TRACEPARENT.exec(text.trim());
  if (!match || match[1] === 'ff' || (match[1] === '00' && match[5] !== undefined)) return undefined;
  const context: SpanContext = { traceId: match[2], spanId: match[3], traceFlags: parseInt(match[4], 16) & TraceFlags.SAMPLED, isRemote: true };
  if (!isSpanContextValid(context)) return undefined;
  const state = Array.isArray(tracestate) ? tracestate.join(',') : tracestate;
  if (state) context.traceState = createTraceState(state);
  return context;
}

/** The W3C headers that let a receiver join the trace of `parent` as a child of its span. */
export function traceHeaders(parent: TraceParent): { traceparent: string; tracestate?: string } {
  const context = trace.getSpanContext(parent);
  if (!context || !isSpanContextValid(context)) return traceHeaders(startTrace());
  const traceparent = `00-${context.traceId}-${context.spanId}-0${context.traceFlags & TraceFlags.SAMPLED}`;
  const tracestate = context.traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/**
 * A new trace, recorded by no one here: its ids are what the logs and receivers see when tracing is off and no
 * caller's trace is continued. It is marked sampled, so that a receiver that traces (with the usual parent-based
 * sampler) records its side rather than dropping it for a decision the gateway never made.
 */
export function startTrace(): TraceParent {
  const at = nextIds();
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: pool.toString('hex', at, at + 16), spanId: pool.toString('hex', at + 16, at + 24), traceFlags: TraceFlags.SAMPLED, isRemote: true });
}

/**
 * Random bytes for ids, drawn 4 KB at a time: one `randomFillSync` per request cost more than the rest of its
 * trace context, one per 170 requests costs nothing (docs/benchmarks.md, "Tracing that costs nothing when off").
 */
const pool = Buffer.alloc(4_080);
let used = pool.length;
function nextIds(): number {
  if (used + 24 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 24;
  return used - 24;
}

/** The trace and span ids a log line carries (OpenTelemetry's log field names). */
export function logIds(parent: TraceParent): { trace_id: string; span_id: string } {
  const context = trace.getSpanContext(parent);
  return context ? { trace_id: context.traceId, span_id: context.spanId } : { trace_id: '', span_id: '' };
}
