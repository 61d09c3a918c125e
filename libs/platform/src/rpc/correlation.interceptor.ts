import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { CORRELATION_HEADER, withCorrelationId } from '../logging/correlation.js';

@Injectable()
export class RpcCorrelationInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const ctx = context.switchToRpc().getContext() as { getHeaders?: () => { get(k: string): string } | undefined };
    let rid: string | undefined;
    try {
      rid = ctx?.getHeaders?.()?.get(CORRELATION_HEADER) || undefined;
    } catch {
      rid = undefined;
    }
    return new Observable((subscriber) => withCorrelationId(rid, () => next.handle().subscribe(subscriber)));
  }
}
