import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider,
} from '@opentelemetry/sdk-trace';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import { loadSettings } from '../config/settings.js';
import { setTracingActive } from './trace-context.js';
import { tracingSettings } from './tracing-settings.js';

/** Call `shutdown` before the process exits: it exports what is still buffered. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/** Short, so a trace is complete at the collector soon after the work. */
const EXPORT_DELAY_MS = 1_000;

/** Prisma's spans come through its global hook, so no module patching under ESM. */
export function startTracing(app: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  const settings = loadSettings(tracingSettings, env);
  if (!settings.tracingEnabled) return undefined;
  const base = settings.tracingOtlpEndpoint.endsWith('/') ? settings.tracingOtlpEndpoint : `${settings.tracingOtlpEndpoint}/`;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.tracingServiceName || `cairn-${app}` }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.tracingSamplerRatio) }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: new URL('v1/traces', base).href }),
        scheduledDelayMillis: EXPORT_DELAY_MS,
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const prisma = new PrismaInstrumentation({ enabled: false });
  prisma.setTracerProvider(provider);
  prisma.enable();
  setTracingActive(true);
  return {
    shutdown: async () => {
      setTracingActive(false);
      await provider.shutdown().catch(() => undefined);
    },
  };
}
