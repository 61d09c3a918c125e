import type { FastifyReply, FastifyRequest } from 'fastify';
import { attachmentDisposition, parseRange, type BlobStore } from '@cairn/platform';

export interface ServedFile {
  sha256: string;
  md5: string;
  sha1: string;
  sha512: string;
  size: number;
  filename: string;
  lastModified: Date;
  contentType?: string;
}

/** Streams a file, never buffering it, with digests (`ETag` is the sha256), a single `Range` and 304s. */
export async function serveBlob(req: FastifyRequest, reply: FastifyReply, blobs: BlobStore, file: ServedFile): Promise<void> {
  const etag = `"${file.sha256}"`;
  void reply
    .header('content-type', file.contentType ?? 'application/octet-stream')
    .header('content-disposition', attachmentDisposition(file.filename))
    .header('etag', etag)
    .header('last-modified', file.lastModified.toUTCString())
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, max-age=300')
    .header('x-checksum-md5', file.md5)
    .header('x-checksum-sha1', file.sha1)
    .header('x-checksum-sha256', file.sha256)
    .header('x-checksum-sha512', file.sha512);
  if (req.headers['if-none-match'] === etag) {
    await reply.code(304).send();
    return;
  }
  const range = parseRange(req.headers.range, file.size);
  if (range === 'unsatisfiable') {
    await reply.code(416).header('content-range', `bytes */${file.size}`).type('text/plain; charset=utf-8').send('range not satisfiable\n');
    return;
  }
  const length = range ? range.end - range.start + 1 : file.size;
  if (req.method === 'HEAD') {
    // Headers only: no file is opened for a request that will not read it.
    // Written directly: Fastify would set the length of the empty payload instead.
    if (range) void reply.header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
    const headers = { ...reply.getHeaders(), 'content-length': String(length) };
    reply.hijack();
    reply.raw.writeHead(range ? 206 : 200, headers as Record<string, string>);
    reply.raw.end();
    return;
  }
  // SERVE_DIRECT: the bytes come from the object store itself (it answers the client's Range too); the checks above
  // have already run, and the URL expires within minutes.
  const direct = await blobs.directUrl(file.sha256, { filename: file.filename, contentType: file.contentType ?? 'application/octet-stream' });
  if (direct) {
    await reply.code(303).header('location', direct).header('content-length', '0').send();
    return;
  }
  const stream = await blobs.open(file.sha256, range ?? undefined);
  if (!stream) throw new Error(`blob ${file.sha256} is recorded but missing from the blob store`);
  if (range) {
    void reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
  }
  void reply.header('content-length', String(length));
  await reply.send(stream);
}
