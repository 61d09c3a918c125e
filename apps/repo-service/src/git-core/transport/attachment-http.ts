import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import {
  DomainError, ErrorCode, INTERNAL_HEADERS, RepoOperations, assertSubjectAccess, httpStatusForErrorCode,
} from '@cairn/contracts';
import { parseRange } from '@cairn/platform';
import { asLevel } from '../../foundation/access/access-level.js';
import { ATTACHMENT_UUID, DECIMAL_ID, type AttachmentBlobs } from '../storage/attachment-blobs.js';
import type { AttachmentUploads } from './transport-ports.js';

export interface AttachmentEndpoint {
  service: AttachmentUploads;
  blobs: AttachmentBlobs;
}

function id(value: string | string[] | null | undefined): number | null {
  return typeof value === 'string' && DECIMAL_ID.test(value) && Number(value) <= 2 ** 31 - 1 ? Number(value) : null;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' });
  res.end(JSON.stringify(body));
}

/** A refusal the gateway turns back into the same DomainError (`{code, message}`); unexpected failures stay 500. */
function failure(res: ServerResponse, err: unknown): void {
  if (err instanceof DomainError && err.code !== ErrorCode.INTERNAL) {
    json(res, httpStatusForErrorCode(err.code), { code: err.code, message: err.message });
    return;
  }
  throw err;
}

/**
 * The gateway has authorised the caller and the upload's level is checked again against `REPO_ACCESS_NEEDS`; the
 * release and the repository's state are checked here. GET answers a single `Range` (206, 416), or 303 to a presigned
 * URL with `[storage] SERVE_DIRECT` on S3.
 */
export async function serveAttachment(endpoint: AttachmentEndpoint, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const q = url.searchParams;
  const repoId = id(q.get('repo'));
  if (repoId === null) return json(res, 400, { code: ErrorCode.INVALID_ARGUMENT, message: 'repository id required' });
  if (req.method === 'POST') {
    const releaseId = id(q.get('release'));
    const uploaderId = id(req.headers[INTERNAL_HEADERS.actorId]);
    if (releaseId === null || uploaderId === null) {
      return json(res, 400, { code: ErrorCode.INVALID_ARGUMENT, message: 'release and actor ids required' });
    }
    try {
      const actor = { id: uploaderId };
      const level = req.headers[INTERNAL_HEADERS.access];
      assertSubjectAccess({ actor, access: asLevel(typeof level === 'string' ? level : undefined) }, RepoOperations.attachmentUpload);
      const dto = await endpoint.service.upload({ repoId, releaseId, uploaderId, name: q.get('name') ?? '' }, req);
      return json(res, 201, dto);
    } catch (err) {
      return failure(res, err);
    }
  }
  if (req.method !== 'GET') return json(res, 405, { code: ErrorCode.NOT_ALLOWED, message: 'method not allowed' });
  const uuid = q.get('uuid') ?? '';
  if (!ATTACHMENT_UUID.test(uuid)) return json(res, 400, { code: ErrorCode.INVALID_ARGUMENT, message: 'invalid attachment uuid' });
  const blob = await endpoint.blobs.find(repoId, uuid);
  if (!blob) return json(res, 404, { code: ErrorCode.NOT_FOUND, message: 'attachment file not found' });
  const range = parseRange(req.headers.range, blob.size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'content-range': `bytes */${blob.size}`, 'content-length': '0' });
    return void res.end();
  }
  const direct = await endpoint.blobs.directUrl(blob.sha256, blob.name);
  if (direct) {
    res.writeHead(303, { location: direct, 'content-length': '0' });
    return void res.end();
  }
  const stream = await endpoint.blobs.open(blob.sha256, range ?? undefined);
  if (!stream) return json(res, 404, { code: ErrorCode.NOT_FOUND, message: 'attachment file not found' });
  const length = range ? range.end - range.start + 1 : blob.size;
  res.writeHead(range ? 206 : 200, {
    'content-type': 'application/octet-stream',
    'content-length': String(length),
    ...(range ? { 'content-range': `bytes ${range.start}-${range.end}/${blob.size}` } : {}),
  });
  await pipeline(stream, res).catch(() => res.destroy());
}
