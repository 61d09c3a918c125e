import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { DomainError } from '@cairn/contracts';
import { Observable, tap } from 'rxjs';
import { rpcServerDuration } from '../metrics/cairn-metrics.js';

/** Nest's `PATTERN_METADATA`; its constants are not exported. */
const PATTERN_METADATA = 'microservices:pattern';

/** The subject is the catalogue pattern, not the namespaced wire subject; `unexpected` for anything not a domain error. */
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

export function rpcOutcome(err: unknown): string {
  return err instanceof DomainError ? err.code : 'unexpected';
}
