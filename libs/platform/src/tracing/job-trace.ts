import { currentTraceparent, TRACEPARENT } from './trace-context.js';

export type TracedJobData<T> = T & { [TRACEPARENT]?: string };

export function withJobTrace<T>(data: T): T {
  const traceparent = currentTraceparent();
  if (!traceparent || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  return { ...data, [TRACEPARENT]: traceparent };
}

export function jobTraceparent(data: unknown): string | undefined {
  const value = (data as Record<string, unknown> | null)?.[TRACEPARENT];
  return typeof value === 'string' ? value : undefined;
}
