import {
  Inject, Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Paginated } from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { map, type Observable } from 'rxjs';
import { sendPage } from './pagination.js';

export const PAGED = 'cairn:paged';

/** How a paginated route answers: the page's items, or Gitea's search envelope `{ ok, data }`. */
export type PageShape = 'items' | 'search';

/** `X-Total-Count` and `Link` are set in one place ({@link PageInterceptor}) from the request's `page`/`limit`. */
export const Paged = (shape: PageShape = 'items') => SetMetadata(PAGED, shape);

function numberOrUndefined(value: unknown): number | undefined {
  const n = typeof value === 'string' && value !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

@Injectable()
export class PageInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(COMMON_SETTINGS) private readonly settings: CommonSettings,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const shape = this.reflector.get<PageShape | undefined>(PAGED, context.getHandler());
    if (!shape) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const q = (req.query ?? {}) as Record<string, unknown>;
    const query = { page: numberOrUndefined(q.page), limit: numberOrUndefined(q.limit) };
    return next.handle().pipe(
      map((page: Paginated<unknown>) => {
        const items = sendPage(req, reply, page, query, this.settings.rootUrl);
        return shape === 'search' ? { ok: true, data: items } : items;
      }),
    );
  }
}
