import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';
import { currentTraceCarrier } from './trace-context.js';

export function injectTraceHeaders(headers: MsgHdrs): void {
  const carrier = currentTraceCarrier();
  if (!carrier) return;
  for (const [key, value] of Object.entries(carrier)) headers.set(key, value);
}

export function natsTraceHeaders(): MsgHdrs | undefined {
  const carrier = currentTraceCarrier();
  if (!carrier) return undefined;
  const headers = natsHeaders();
  for (const [key, value] of Object.entries(carrier)) headers.set(key, value);
  return headers;
}
