import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import {
  ACCESS_LEVELS, DomainError, ErrorCode, INTERNAL_HEADERS, RepoOperations, assertSubjectAccess, httpStatusForErrorCode,
  type AccessLevel,
} from '@cairn/contracts';
import type { AttachmentStore } from '../storage/attachment-store.js';
import type { AttachmentUploads } from './transport-ports.js';

/** What the internal endpoint needs to take and give release attachment bytes. */
export interface AttachmentEndpoint {
  service: AttachmentUploads;
  store: AttachmentStore;
}

function id(value: string | string[] | null | undefined): number | null {
  return typeof value === 'string' && /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2 ** 31 - 1 ? Number(value) : null;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' });
  res.end(JSON.stringify(body));
}

/** The `INTERNAL_HEADERS.access` level, or `none` when absent or unknown (then refused). */
function accessLevel(value: string | string[] | undefined): AccessLevel {
  return (ACCESS_LEVELS as readonly unknown[]).includes(value) ? (value as AccessLevel) : 'none';
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
 * `POST /internal/attachments?repo=&release=&name=` (body: the file; actor and access headers): stores it, 201 with
 * the `AttachmentDto`, when the access meets `REPO_ACCESS_NEEDS`. `GET /internal/attachments?repo=&uuid=`: streams
 * the file with its length. The release and the repository's state are checked here.
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
      assertSubjectAccess({ actor, access: accessLevel(req.headers[INTERNAL_HEADERS.access]) }, RepoOperations.attachmentUpload);
      const dto = await endpoint.service.upload({ repoId, releaseId, uploaderId, name: q.get('name') ?? '' }, req);
      return json(res, 201, dto);
    } catch (err) {
      return failure(res, err);
    }
  }
  if (req.method !== 'GET') return json(res, 405, { code: ErrorCode.NOT_ALLOWED, message: 'method not allowed' });
  let file;
  try {
    file = await endpoint.store.open(repoId, q.get('uuid') ?? '');
  } catch {
    return json(res, 400, { code: ErrorCode.INVALID_ARGUMENT, message: 'invalid attachment uuid' });
  }
  if (!file) return json(res, 404, { code: ErrorCode.NOT_FOUND, message: 'attachment file not found' });
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(file.size) });
  await pipeline(file.stream, res).catch(() => res.destroy());
}
