import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Observable, throwError } from 'rxjs';

/** Epoch ms: absolute, so time spent buffered counts too; hosts are expected to keep their clocks synchronised (NTP). */
export const DEADLINE_HEADER = 'cairn-deadline';

const storage = new AsyncLocalStorage<{ deadline: number }>();

/** Nested calls inherit it. */
export function withRpcDeadline<T>(deadline: number, fn: () => T): T {
  return storage.run({ deadline }, fn);
}

export function currentRpcDeadline(): number | undefined {
  return storage.getStore()?.deadline;
}

/** For long operations that may stop without leaving half a change (reads; `runGit({ signal })`). */
export function rpcDeadlineSignal(): AbortSignal | undefined {
  const deadline = currentRpcDeadline();
  if (deadline === undefined) return undefined;
  const left = deadline - Date.now();
  return left <= 0 ? AbortSignal.abort() : AbortSignal.timeout(left);
}

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

/** The caller answered 504 and may retry: work done now would commit behind its back. */
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
