import { Readable } from 'node:stream';
import { DomainError, ReleaseSubjects, type AssetDownloadReply } from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { peekHead, userContentHeaders } from '../../http/user-content.js';
import { InternalRawClient } from '../../routes/repo-content/internal-raw.client.js';
import { contentDisposition } from '../../routes/repo-content/send-raw.js';
import { answered, type PageContext, type WebKit } from '../core/web-kit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Read access as any repository page, for the session or (as Gitea allows scripts) API credentials; streamed with a
 * single `Range`, or a 303 to the object store with `[storage] SERVE_DIRECT`.
 */
export function registerReleaseDownloads(web: WebKit): void {
  const files = new InternalRawClient(web.deps.common);
  const options = { apiCredentials: { scopes: ['read:repository'] } };

  const send = async (ctx: PageContext<unknown, unknown>, repo: RepoContext, found: AssetDownloadReply) => {
    // A HEAD gets the headers alone. Fastify's HEAD route drains a stream it is given: an empty one, not the file.
    let body: Readable;
    let head: Buffer | null = null;
    void ctx.reply.header('accept-ranges', 'bytes');
    if (ctx.req.method === 'HEAD') {
      body = Readable.from([]);
      void ctx.reply.header('content-length', String(found.size));
    } else {
      const range = ctx.req.headers.range;
      const upstream = await files.openAttachment(repo.repo, found.uuid, typeof range === 'string' ? range : undefined);
      const location = upstream.headers.location;
      if (upstream.statusCode === 303 && typeof location === 'string') {
        // SERVE_DIRECT: the object store sends the bytes (and answers the Range) from a URL valid for minutes.
        upstream.resume();
        await ctx.reply.code(303).header('location', location).send();
        return answered();
      }
      for (const name of ['content-length', 'content-range'] as const) {
        const value = upstream.headers[name];
        if (typeof value === 'string') void ctx.reply.header(name, value);
      }
      void ctx.reply.code(upstream.statusCode ?? 200);
      if (upstream.statusCode === 200) ({ head, body } = await peekHead(upstream));
      else body = upstream; // a part (or nothing, 416): its first bytes say nothing of the file's type
    }
    await ctx.reply
      .headers(userContentHeaders('download', head))
      .header('content-disposition', contentDisposition('attachment', found.name))
      .send(body);
    return answered();
  };

  web.get<{ owner: string; repo: string; '*': string }>('/:owner/:repo/releases/download/*', async (ctx) => {
    const repo = await web.repoAccess(ctx, ctx.params.owner, ctx.params.repo, 'releases');
    // The tag may hold slashes; the name is the last segment.
    const rest = ctx.params['*'] ?? '';
    const cut = rest.lastIndexOf('/');
    if (cut <= 0 || cut === rest.length - 1) throw DomainError.notFound('attachment does not exist');
    const found = await web.rpc.send(ReleaseSubjects.assetDownload, {
      ...repo, tag: rest.slice(0, cut), name: rest.slice(cut + 1), headOnly: ctx.req.method === 'HEAD',
    });
    return send(ctx, repo, found);
  }, options);

  web.get<{ uuid: string }>('/attachments/:uuid', async (ctx) => {
    const uuid = ctx.params.uuid.toLowerCase();
    if (!UUID.test(uuid)) throw DomainError.notFound('attachment does not exist');
    const where = await web.rpc.send(ReleaseSubjects.assetLocate, { uuid });
    const repo = await web.repoAccess(ctx, where.owner, where.repo, 'releases');
    return send(ctx, repo, await web.rpc.send(ReleaseSubjects.assetDownload, { ...repo, uuid, headOnly: ctx.req.method === 'HEAD' }));
  }, options);
}
