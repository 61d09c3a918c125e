import { toPaging, type Paginated, type Paging } from '@cairn/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Gitea's list headers: `X-Total-Count` and an RFC 8288 `Link`; every paginated route goes through here. */
export function sendPage<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  page: Paginated<T>,
  query: { page?: number; limit?: number } | undefined,
  rootUrl: string,
): T[] {
  const paging = toPaging(query);
  reply.header('x-total-count', String(page.total));
  const link = linkHeader(req, paging, page.total, rootUrl);
  if (link) reply.header('link', link);
  reply.header('access-control-expose-headers', 'X-Total-Count, Link');
  return page.items;
}

export function linkHeader(req: FastifyRequest, paging: Paging, total: number, rootUrl: string): string {
  const lastPage = Math.max(1, Math.ceil(total / paging.limit));
  const base = new URL(req.url, rootUrl);
  const at = (p: number) => {
    const u = new URL(base);
    u.searchParams.set('page', String(p));
    u.searchParams.set('limit', String(paging.limit));
    return `${rootUrl.replace(/\/$/, '')}${u.pathname}${u.search}`;
  };
  const links: string[] = [];
  if (paging.page < lastPage) {
    links.push(`<${at(paging.page + 1)}>; rel="next"`, `<${at(lastPage)}>; rel="last"`);
  }
  if (paging.page > 1) links.push(`<${at(1)}>; rel="first"`, `<${at(paging.page - 1)}>; rel="prev"`);
  return links.join(',');
}
