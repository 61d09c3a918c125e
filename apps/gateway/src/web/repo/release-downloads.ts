import { DomainError, ReleaseSubjects, type AssetDownloadReply } from '@cairn/contracts';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { InternalRawClient } from '../../routes/repo-content/internal-raw.client.js';
import { contentDisposition } from '../../routes/repo-content/send-raw.js';
import { answered, type PageContext, type WebKit } from '../core/web-kit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Release attachment downloads (Gitea's web routes): `/{owner}/{repo}/releases/download/{tag}/{name}` — every
 * attachment's `browser_download_url` — and `/attachments/{uuid}`. Read access as every repository page (private:
 * 404 to outsiders; `REQUIRE_SIGNIN_VIEW` applies), the download counted by repo-service, then the bytes streamed from
 * its internal endpoint with their length; nothing is buffered.
 */
export function registerReleaseDownloads(web: WebKit): void {
  const files = new InternalRawClient(web.deps.common);

  const send = async (ctx: PageContext<unknown, unknown>, repo: RepoContext, found: AssetDownloadReply) => {
    const upstream = await files.openAttachment(repo.repo, found.uuid);
    const length = upstream.headers['content-length'];
    if (typeof length === 'string') void ctx.reply.header('content-length', length);
    await ctx.reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', contentDisposition('attachment', found.name))
      .send(upstream);
    return answered();
  };

  web.get<{ owner: string; repo: string; '*': string }>('/:owner/:repo/releases/download/*', async (ctx) => {
    const repo = await web.repoAccess(ctx, ctx.params.owner, ctx.params.repo);
    // The tag may hold slashes; the name is the last segment.
    const rest = ctx.params['*'] ?? '';
    const cut = rest.lastIndexOf('/');
    if (cut <= 0 || cut === rest.length - 1) throw DomainError.notFound('attachment does not exist');
    const found = await web.rpc.send(ReleaseSubjects.assetDownload, {
      ...repo, tag: rest.slice(0, cut), name: rest.slice(cut + 1),
    });
    return send(ctx, repo, found);
  });

  web.get<{ uuid: string }>('/attachments/:uuid', async (ctx) => {
    const uuid = ctx.params.uuid.toLowerCase();
    if (!UUID.test(uuid)) throw DomainError.notFound('attachment does not exist');
    const where = await web.rpc.send(ReleaseSubjects.assetLocate, { uuid });
    const repo = await web.repoAccess(ctx, where.owner, where.repo);
    return send(ctx, repo, await web.rpc.send(ReleaseSubjects.assetDownload, { ...repo, uuid }));
  });
}
