import { currentTraceparent, TRACEPARENT } from './trace-context.js';

/** Job data as it travels: the producer's `traceparent` beside the contract's fields (ids only, as ever). */
export type TracedJobData<T> = T & { [TRACEPARENT]?: string };

/** `data` with the current trace context added (unchanged while tracing is off or for non-object data). */
export function withJobTrace<T>(data: T): T {
  const traceparent = currentTraceparent();
  if (!traceparent || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  return { ...data, [TRACEPARENT]: traceparent };
}

/** The producer's `traceparent` carried in a job's data, if any. */
export function jobTraceparent(data: unknown): string | undefined {
  const value = (data as Record<string, unknown> | null)?.[TRACEPARENT];
  return typeof value === 'string' ? value : undefined;
}
