import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { DomainError } from '@cairn/contracts';
import { Observable, tap } from 'rxjs';
import { rpcServerDuration } from '../metrics/cairn-metrics.js';

/** Where `@MessagePattern` keeps a handler's patterns (Nest's `PATTERN_METADATA`; its constants are not exported). */
const PATTERN_METADATA = 'microservices:pattern';

/**
 * Times every request a service answers in `cairn_rpc_server_duration_seconds{subject,outcome}`. The subject is the
 * handler's catalogue pattern (not the namespaced wire subject); the outcome is `ok`, the domain error code, or
 * `unexpected` for anything else (the error filter answers INTERNAL or its own mapping).
 */
@Injectable()
export class RpcMetricsInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const patterns = Reflect.getMetadata(PATTERN_METADATA, context.getHandler()) as unknown[] | undefined;
    const subject = typeof patterns?.[0] === 'string' ? patterns[0] : 'unknown';
    const end = rpcServerDuration.startTimer({ subject });
    return next.handle().pipe(
      tap({
        complete: () => end({ outcome: 'ok' }),
        error: (err: unknown) => end({ outcome: rpcOutcome(err) }),
      }),
    );
  }
}

/** The `outcome` label of a failed call: the domain error code, or `unexpected`. */
export function rpcOutcome(err: unknown): string {
  return err instanceof DomainError ? err.code : 'unexpected';
}
