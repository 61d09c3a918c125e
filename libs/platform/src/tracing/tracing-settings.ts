import { parsers, type SettingsOf } from '../config/settings.js';

function ratio(raw: string): number {
  const n = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new Error('expected a number from 0 to 1');
  return n;
}

/** `[tracing]`: OpenTelemetry traces over OTLP/HTTP (off by default). */
export const tracingSettings = {
  /** Record spans and export them to `[tracing] OTLP_ENDPOINT`; off: no tracer at all (near-zero overhead). */
  tracingEnabled: { section: 'tracing', key: 'ENABLED', default: false, parse: parsers.bool },
  /** Base URL of the OTLP/HTTP collector (spans are POSTed to `<it>/v1/traces`, OTLP JSON). */
  tracingOtlpEndpoint: {
    section: 'tracing',
    key: 'OTLP_ENDPOINT',
    default: 'http://127.0.0.1:4318',
    parse: parsers.url('http', 'https'),
  },
  /** Share of new traces recorded (0–1); a request with a sampled parent keeps its parent's decision. */
  tracingSamplerRatio: { section: 'tracing', key: 'SAMPLER_RATIO', default: 1, parse: ratio },
  /** The `service.name` of this process's spans; empty: `cairn-<app>`. */
  tracingServiceName: { section: 'tracing', key: 'SERVICE_NAME', default: '', parse: parsers.string },
};

export type TracingSettings = SettingsOf<typeof tracingSettings>;
