import { RepoSubjects } from '@cairn/contracts';
import type { RpcClient } from '@cairn/platform';
import type { FastifyReply } from 'fastify';
import type { RepoContext } from '../../access/repo-access.guard.js';
import { peekHead, userContentHeaders } from '../../http/user-content.js';
import type { InternalRawClient } from './internal-raw.client.js';

/** Raw bytes travel over the bus up to this size; larger blobs are streamed from repo-service's internal HTTP. */
export const RAW_INLINE_MAX_BYTES = 512 * 1024;

/** Small blobs come inline from `repo.raw.get`, larger ones stream from repo-service; served as user content. */
export async function sendRawBlob(
  rpc: RpcClient,
  internalRaw: InternalRawClient,
  ctx: RepoContext,
  path: string,
  ref: string | undefined,
  reply: FastifyReply,
): Promise<void> {
  const blob = await rpc.send(RepoSubjects.rawGet, { ...ctx, path, ref, maxInlineBytes: RAW_INLINE_MAX_BYTES });
  void reply
    .header('content-disposition', contentDisposition('inline', blob.name))
    .header('etag', `"${blob.sha}"`)
    .header('x-gitea-object-type', blob.type);
  if (blob.contentBase64 !== null) {
    const bytes = Buffer.from(blob.contentBase64, 'base64');
    await reply.headers(userContentHeaders('raw', bytes, undefined, blob.name)).send(bytes);
    return;
  }
  const upstream = await internalRaw.open(ctx.repo, blob.commit, blob.path);
  const length = upstream.headers['content-length'];
  if (typeof length === 'string') void reply.header('content-length', length);
  const { head, body } = await peekHead(upstream);
  await reply.headers(userContentHeaders('raw', head, undefined, blob.name)).send(body);
}

/** `Content-Disposition` with the file name (ASCII fallback plus RFC 5987 for the exact name). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
