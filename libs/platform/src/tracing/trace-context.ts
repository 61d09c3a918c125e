import {
  ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace,
  type Attributes, type Context, type Span, type TextMapGetter,
} from '@opentelemetry/api';

/** Explicit spans and W3C `traceparent` propagation (no patched modules); with tracing off every helper returns at once. */

export type TraceCarrier = Record<string, string>;

export const TRACEPARENT = 'traceparent';

const TRACER_NAME = 'cairn';
let enabled = false;

export function setTracingActive(on: boolean): void {
  enabled = on;
}

export function tracingActive(): boolean {
  return enabled;
}

export function currentTraceCarrier(ctx: Context = context.active()): TraceCarrier | undefined {
  if (!enabled) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier[TRACEPARENT] ? carrier : undefined;
}

export function currentTraceparent(): string | undefined {
  return currentTraceCarrier()?.[TRACEPARENT];
}

const getterOf = <C extends { get(key: string): unknown }>(): TextMapGetter<C> => ({
  keys: () => [TRACEPARENT, 'tracestate'],
  get: (carrier, key) => {
    const v = carrier.get(key);
    return typeof v === 'string' && v ? v : undefined;
  },
});

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
  parent?: Context;
}

export interface StartedSpan {
  span: Span;
  context: Context;
}

export function startSpan(name: string, options: SpanOptions = {}): StartedSpan | undefined {
  if (!enabled) return undefined;
  const parent = options.parent ?? context.active();
  const span = trace.getTracer(TRACER_NAME).startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

export function endSpan(started: StartedSpan | undefined, error?: unknown): void {
  if (!started) return;
  if (error !== undefined && error !== null) {
    started.span.recordException(error instanceof Error ? error : String(error));
    started.span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  started.span.end();
}

/** While tracing is off it only calls `fn`. */
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

/** For callbacks that lost it, e.g. Fastify's hook chain. */
export function withTraceContext<T>(ctx: Context | undefined, fn: () => T): T {
  return enabled && ctx ? context.with(ctx, fn) : fn();
}

export function currentTraceIds(): { trace_id: string; span_id: string } | undefined {
  if (!enabled) return undefined;
  const sc = trace.getSpan(context.active())?.spanContext();
  return sc && trace.isSpanContextValid(sc) ? { trace_id: sc.traceId, span_id: sc.spanId } : undefined;
}

export { SpanKind };
