import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { SpanKind, contextFrom, endSpan, startSpan, tracingActive, withTraceContext } from '../tracing/trace-context.js';

interface NatsMessageContext {
  getSubject?: () => string;
  getHeaders?: () => { get(key: string): string } | undefined;
}

@Injectable()
export class RpcTracingInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!tracingActive()) return next.handle();
    const ctx = context.switchToRpc().getContext() as NatsMessageContext;
    const subject = ctx?.getSubject?.() ?? context.getHandler().name;
    let headers: { get(key: string): string } | undefined;
    try {
      headers = ctx?.getHeaders?.();
    } catch {
      headers = undefined;
    }
    return new Observable((subscriber) => {
      const started = startSpan(`rpc.handle ${subject}`, {
        kind: SpanKind.SERVER,
        parent: contextFrom(headers),
        attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject },
      });
      return withTraceContext(started?.context, () =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (err: unknown) => {
            endSpan(started, err);
            subscriber.error(err);
          },
          complete: () => {
            endSpan(started);
            subscriber.complete();
          },
        }),
      );
    });
  }
}
