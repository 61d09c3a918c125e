import {
  ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace,
  type Attributes, type Context, type Span, type TextMapGetter,
} from '@opentelemetry/api';

/**
 * Explicit spans and W3C `traceparent` propagation across HTTP, NATS, the outbox's events and BullMQ jobs (no
 * patched modules); with tracing off every helper returns at once.
 */

/** W3C trace-context fields (`traceparent`, maybe `tracestate`) as they cross a boundary. */
export type TraceCarrier = Record<string, string>;

/** The field that carries the trace context in headers, job data and outbox rows. */
export const TRACEPARENT = 'traceparent';

const TRACER_NAME = 'cairn';
let enabled = false;

/** Turns the helpers on (`startTracing` calls it once the tracer provider is registered). */
export function setTracingActive(on: boolean): void {
  enabled = on;
}

/** Whether this process records spans. */
export function tracingActive(): boolean {
  return enabled;
}

/** The current trace context to send along; undefined while tracing is off or nothing is traced. */
export function currentTraceCarrier(ctx: Context = context.active()): TraceCarrier | undefined {
  if (!enabled) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier[TRACEPARENT] ? carrier : undefined;
}

/** The current `traceparent` alone (for an outbox row or a job's data). */
export function currentTraceparent(): string | undefined {
  return currentTraceCarrier()?.[TRACEPARENT];
}

/** Reads fields from anything with a `get` (NATS headers); plain objects use the default getter. */
const getterOf = <C extends { get(key: string): unknown }>(): TextMapGetter<C> => ({
  keys: () => [TRACEPARENT, 'tracestate'],
  get: (carrier, key) => {
    const v = carrier.get(key);
    return typeof v === 'string' && v ? v : undefined;
  },
});

/**
 * The context a received message continues: its trace fields (a plain object such as HTTP headers or a
 * {@link TraceCarrier}, a `traceparent` string, or headers with a `get` method); the empty context when it has none.
 */
export function contextFrom(carrier: TraceCarrier | string | { get(key: string): unknown } | null | undefined): Context {
  if (!enabled || !carrier) return ROOT_CONTEXT;
  if (typeof carrier === 'string') return propagation.extract(ROOT_CONTEXT, { [TRACEPARENT]: carrier });
  if (typeof (carrier as { get?: unknown }).get === 'function') {
    return propagation.extract(ROOT_CONTEXT, carrier as { get(key: string): unknown }, getterOf());
  }
  return propagation.extract(ROOT_CONTEXT, carrier);
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Continue this context (a received message's, from {@link contextFrom}) instead of the current one. */
  parent?: Context;
}

/** A started span and the context in which it is the current one; `end` it yourself. */
export interface StartedSpan {
  span: Span;
  context: Context;
}

/** Starts a span (undefined while tracing is off) for work whose end is signalled by a callback or an event. */
export function startSpan(name: string, options: SpanOptions = {}): StartedSpan | undefined {
  if (!enabled) return undefined;
  const parent = options.parent ?? context.active();
  const span = trace.getTracer(TRACER_NAME).startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Ends a span, marking it failed when `error` is given. */
export function endSpan(started: StartedSpan | undefined, error?: unknown): void {
  if (!started) return;
  if (error !== undefined && error !== null) {
    started.span.recordException(error instanceof Error ? error : String(error));
    started.span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  started.span.end();
}

/**
 * Runs `fn` inside a new span (its children and outgoing messages join it) and ends the span when `fn` settles;
 * a throw or rejection marks it failed and is passed on. While tracing is off it only calls `fn`.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span?: Span) => T): T {
  const started = startSpan(name, options);
  if (!started) return fn();
  return context.with(started.context, () => {
    let result: T;
    try {
      result = fn(started.span);
    } catch (err) {
      endSpan(started, err);
      throw err;
    }
    if (result instanceof Promise) {
      return result.then(
        (value: unknown) => {
          endSpan(started);
          return value;
        },
        (err: unknown) => {
          endSpan(started, err);
          throw err;
        },
      ) as T;
    }
    endSpan(started);
    return result;
  });
}

/** Runs `fn` with `ctx` as the current context (callbacks that lost it, e.g. Fastify's hook chain). */
export function withTraceContext<T>(ctx: Context | undefined, fn: () => T): T {
  return enabled && ctx ? context.with(ctx, fn) : fn();
}

/** The current span's ids for log lines; undefined when nothing is traced. */
export function currentTraceIds(): { trace_id: string; span_id: string } | undefined {
  if (!enabled) return undefined;
  const sc = trace.getSpan(context.active())?.spanContext();
  return sc && trace.isSpanContextValid(sc) ? { trace_id: sc.traceId, span_id: sc.spanId } : undefined;
}

export { SpanKind };
