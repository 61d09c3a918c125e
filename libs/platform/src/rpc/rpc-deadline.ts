import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Observable, throwError } from 'rxjs';

/**
 * The NATS header carrying a request's deadline: epoch milliseconds after which the caller no longer waits (its
 * timeout). Absolute, so time the message spent buffered (a client reconnecting, a busy event loop) counts too;
 * hosts are expected to keep their clocks synchronised (NTP), as any cluster does.
 */
export const DEADLINE_HEADER = 'cairn-deadline';

const storage = new AsyncLocalStorage<{ deadline: number }>();

/** Runs `fn` with `deadline` (epoch ms) bound to everything it awaits: nested calls inherit it. */
export function withRpcDeadline<T>(deadline: number, fn: () => T): T {
  return storage.run({ deadline }, fn);
}

/** The deadline (epoch ms) of the request being handled, if any. */
export function currentRpcDeadline(): number | undefined {
  return storage.getStore()?.deadline;
}

/**
 * An AbortSignal that fires when the current request's deadline passes (undefined outside a request with one): pass
 * it to long operations that may be stopped without leaving half a change (reads; `runGit({ signal })`).
 */
export function rpcDeadlineSignal(): AbortSignal | undefined {
  const deadline = currentRpcDeadline();
  if (deadline === undefined) return undefined;
  const left = deadline - Date.now();
  return left <= 0 ? AbortSignal.abort() : AbortSignal.timeout(left);
}

/** Reads the deadline header of a NATS message (undefined when absent or not a number). */
export function deadlineFromHeaders(headers: { get(k: string): string } | undefined): number | undefined {
  let raw: string | undefined;
  try {
    raw = headers?.get(DEADLINE_HEADER) || undefined;
  } catch {
    raw = undefined;
  }
  const value = raw === undefined ? NaN : Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Refuses to start a handler whose caller's deadline has already passed (the caller answered 504 and may retry: work
 * done now would commit behind its back), and binds the deadline for the handler, so the calls it makes inherit it
 * and long operations can stop with {@link rpcDeadlineSignal}.
 */
@Injectable()
export class RpcDeadlineInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const ctx = context.switchToRpc().getContext() as { getHeaders?: () => { get(k: string): string } | undefined };
    const deadline = deadlineFromHeaders(ctx?.getHeaders?.());
    if (deadline === undefined) return next.handle();
    if (Date.now() >= deadline) {
      const late = Date.now() - deadline;
      return throwError(
        () => new DomainError(ErrorCode.TIMEOUT, `the caller's deadline passed ${late} ms before the work could start; nothing was done`),
      );
    }
    return new Observable((subscriber) => withRpcDeadline(deadline, () => next.handle().subscribe(subscriber)));
  }
}
