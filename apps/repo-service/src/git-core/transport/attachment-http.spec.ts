import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { INTERNAL_HEADERS, type AttachmentDto } from '@cairn/contracts';
import { describe, expect, it } from 'vitest';
import type { AttachmentBlobs } from '../storage/attachment-blobs.js';
import { serveAttachment, type AttachmentEndpoint } from './attachment-http.js';
import type { AttachmentUpload } from './transport-ports.js';

/** An upload request as the gateway sends it, with `access` as the caller's level (absent: no header). */
function uploadRequest(access?: string): IncomingMessage {
  const req = new PassThrough() as unknown as IncomingMessage;
  req.method = 'POST';
  req.headers = { [INTERNAL_HEADERS.actorId]: '5', ...(access === undefined ? {} : { [INTERNAL_HEADERS.access]: access }) };
  (req as unknown as PassThrough).end('bytes');
  return req;
}

/** What the endpoint answered. */
function recorder(): { res: ServerResponse; answer: () => { status: number; body: { code?: string; message?: string } } } {
  let status = 0;
  let body = '';
  const res = {
    headersSent: false,
    writeHead(s: number) { status = s; return res; },
    end(text: string) { body = text; },
  };
  return { res: res as unknown as ServerResponse, answer: () => ({ status, body: JSON.parse(body) as { code?: string; message?: string } }) };
}

/** Records the uploads that got past the access check (storing them is not what this file tests). */
function endpoint(): { endpoint: AttachmentEndpoint; uploads: AttachmentUpload[] } {
  const uploads: AttachmentUpload[] = [];
  const service = {
    upload: (upload: AttachmentUpload) => {
      uploads.push(upload);
      return Promise.resolve({ id: 1, name: upload.name } as AttachmentDto);
    },
  };
  return { endpoint: { service, blobs: {} as AttachmentBlobs }, uploads };
}

const URL_ = new URL('http://repo-service/internal/attachments?repo=3&release=4&name=a.txt');

describe('the internal attachment upload judges the caller\'s level by REPO_ACCESS_NEEDS', () => {
  it('stores the upload of a writer', async () => {
    const { endpoint: e, uploads } = endpoint();
    const { res, answer } = recorder();
    await serveAttachment(e, uploadRequest('write'), res, URL_);
    expect(answer().status).toBe(201);
    expect(uploads).toEqual([{ repoId: 3, releaseId: 4, uploaderId: 5, name: 'a.txt' }]);
  });

  it('refuses a reader, an unknown level and a missing one with 403 before anything is stored', async () => {
    for (const access of ['read', 'bogus', undefined]) {
      const { endpoint: e, uploads } = endpoint();
      const { res, answer } = recorder();
      await serveAttachment(e, uploadRequest(access), res, URL_);
      expect(answer(), String(access)).toEqual({
        status: 403, body: { code: 'PERMISSION_DENIED', message: 'user should have a permission to write to a repo' },
      });
      expect(uploads).toEqual([]);
    }
  });
});
