import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The header that carries a request's correlation id over HTTP and in NATS message headers. */
export const CORRELATION_HEADER = 'x-request-id';

const storage = new AsyncLocalStorage<{ correlationId: string }>();

/** Runs `fn` with a correlation id bound to everything it awaits. */
export function withCorrelationId<T>(correlationId: string | undefined, fn: () => T): T {
  return storage.run({ correlationId: correlationId || randomUUID() }, fn);
}

/** The correlation id of the current request, if any. */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}
