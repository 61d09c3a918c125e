import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { currentTraceCarrier } from './trace-context.js';

/** Adds the current trace context to outgoing NATS message headers (nothing while tracing is off). */
export function injectTraceHeaders(headers: MsgHdrs): void {
  const carrier = currentTraceCarrier();
  if (!carrier) return;
  for (const [key, value] of Object.entries(carrier)) headers.set(key, value);
}

/** Headers holding the current trace context only; undefined while tracing is off or nothing is traced. */
export function natsTraceHeaders(): MsgHdrs | undefined {
  const carrier = currentTraceCarrier();
  if (!carrier) return undefined;
  const headers = natsHeaders();
  for (const [key, value] of Object.entries(carrier)) headers.set(key, value);
  return headers;
}
