import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { withJobTrace, jobTraceparent } from './job-trace.js';
import {
  contextFrom, currentTraceCarrier, currentTraceIds, inSpan, setTracingActive, SpanKind, tracingActive,
} from './trace-context.js';
import { startTracing } from './tracing.js';
import { ConfigError } from '../config/settings.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });

describe('while tracing is off', () => {
  it('adds nothing anywhere and only runs the work', async () => {
    expect(tracingActive()).toBe(false);
    expect(startTracing('test', {})).toBeUndefined();
    const data = { pullId: 7 };
    expect(await inSpan('work', {}, async () => currentTraceCarrier())).toBeUndefined();
    expect(withJobTrace(data)).toBe(data);
    expect(currentTraceIds()).toBeUndefined();
  });

  it('refuses invalid [tracing] settings with the setting named', () => {
    expect(() => startTracing('test', { CAIRN__TRACING__SAMPLER_RATIO: '2' })).toThrow(ConfigError);
    expect(() => startTracing('test', { CAIRN__TRACING__SAMPLER_RATIO: '2' })).toThrow(/SAMPLER_RATIO.*from 0 to 1/);
    expect(() => startTracing('test', { CAIRN__TRACING__OTLP_ENDPOINT: 'ftp://x' })).toThrow(/OTLP_ENDPOINT/);
  });
});

describe('while tracing', () => {
  beforeAll(() => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    setTracingActive(true);
  });
  afterAll(() => setTracingActive(false));
  beforeEach(() => exporter.reset());

  it('nests spans across awaits and passes the trace on in a traceparent', async () => {
    const carrier = await inSpan('outer', {}, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return inSpan('inner', { kind: SpanKind.CLIENT }, async () => currentTraceCarrier());
    });
    const [inner, outer] = exporter.getFinishedSpans();
    expect(inner.name).toBe('inner');
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(carrier?.traceparent).toBe(`00-${inner.spanContext().traceId}-${inner.spanContext().spanId}-01`);
  });

  it('continues a received trace from headers, a traceparent or job data', async () => {
    const sent = await inSpan('producer', {}, async () => withJobTrace({ deliveryId: 3 }));
    const producer = exporter.getFinishedSpans()[0];
    expect(sent).toEqual({ deliveryId: 3, traceparent: `00-${producer.spanContext().traceId}-${producer.spanContext().spanId}-01` });
    const headers = new Map([['traceparent', jobTraceparent(sent)!]]);
    await inSpan('from job data', { parent: contextFrom(jobTraceparent(sent)) }, () => undefined);
    await inSpan('from headers', { parent: contextFrom(headers) }, () => undefined);
    await inSpan('from nothing', { parent: contextFrom(undefined) }, () => undefined);
    const [, fromJob, fromHeaders, fromNothing] = exporter.getFinishedSpans();
    for (const span of [fromJob, fromHeaders]) {
      expect(span.spanContext().traceId).toBe(producer.spanContext().traceId);
      expect(span.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);
    }
    expect(fromNothing.spanContext().traceId).not.toBe(producer.spanContext().traceId);
    expect(fromNothing.parentSpanContext).toBeUndefined();
  });

  it('marks a failed span and passes the error on; log ids name the current span', async () => {
    let ids: ReturnType<typeof currentTraceIds>;
    await expect(
      inSpan('failing', {}, async () => {
        ids = currentTraceIds();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const [failed] = exporter.getFinishedSpans();
    expect(failed.status).toMatchObject({ code: 2, message: 'boom' });
    expect(ids).toEqual({ trace_id: failed.spanContext().traceId, span_id: failed.spanContext().spanId });
  });
});
