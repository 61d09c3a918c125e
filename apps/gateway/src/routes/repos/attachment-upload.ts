import type { ClientRequest, IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Logger, PayloadTooLargeException } from '@nestjs/common';
import busboy from 'busboy';
import {
  DomainError, ErrorCode, INTERNAL_ATTACHMENTS_PATH, INTERNAL_HEADERS, isValidAttachmentName, type AccessLevel, type AttachmentDto,
  type RepoRefDto,
} from '@cairn/contracts';
import type { CommonSettings } from '@cairn/platform';
import type { FastifyRequest } from 'fastify';
import { InternalEndpoint, internalCallHeaders } from '../../http/internal-endpoint.js';

const MAX_ANSWER_BYTES = 64 * 1024;
const ERROR_CODES = new Set<string>(Object.values(ErrorCode));

/** A promise's resolve/reject as one callback that only the first outcome reaches (streams report late errors too). */
function settleOnce<T>(resolve: (value: T) => void, reject: (err: unknown) => void): (err: unknown, value?: T) => void {
  let settled = false;
  return (err, value) => {
    if (settled) return;
    settled = true;
    if (err) reject(err);
    else resolve(value as T);
  };
}

/** Checked here too (repo-service has the last word), so a bad name is refused before a byte is sent on. */
function nameProblem(name: string): DomainError | null {
  if (!name) return DomainError.invalid('could not determine the name of the attachment: give it in ?name=');
  if (!isValidAttachmentName(name)) return DomainError.invalid(`invalid attachment name "${name.slice(0, 300)}"`);
  return null;
}

function tooLarge(limit: number): PayloadTooLargeException {
  return new PayloadTooLargeException(`attachment too large: the limit is ${limit} bytes ([attachment] MAX_SIZE)`);
}

/** Fails a stream once more than `limit` bytes passed (an octet-stream body without Content-Length). */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) done(tooLarge(limit));
      else done(null, chunk);
    },
  });
}

// Not `pipeline`: when `into` fails (too large) Node drains the request after the 413 instead of resetting the
// connection; when the client goes away, `into` fails so the upstream request is aborted, not ended as complete.
function feed(source: Readable, into: Transform): Transform {
  source.once('close', () => {
    if (!source.readableEnded) into.destroy(new Error('the client went away during the upload'));
  });
  source.pipe(into);
  return into;
}

export interface UploadTarget {
  repo: RepoRefDto;
  releaseId: number;
  actorId: number;
  /** The actor's level on the releases unit: repo-service judges the upload by it. */
  access: AccessLevel;
  /** `?name=`: the attachment's name (instead of the file name of the multipart part). */
  name: string | undefined;
}

/** Streamed to repo-service's internal endpoint, never buffered nor over the bus; past `[attachment] MAX_SIZE` 413. */
export class AttachmentUploader {
  private readonly logger = new Logger('AttachmentUpload');
  private readonly endpoint: InternalEndpoint;
  private readonly maxBytes: number;

  constructor(private readonly common: CommonSettings) {
    this.endpoint = new InternalEndpoint(common.repoInternalUrl);
    this.maxBytes = common.attachmentMaxSizeMb * 1024 * 1024;
  }

  upload(req: FastifyRequest, target: UploadTarget): Promise<AttachmentDto> {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'application/octet-stream') {
      const name = target.name ?? '';
      const problem = nameProblem(name);
      if (problem) throw problem;
      return this.send(target, name, feed(req.raw, byteLimit(this.maxBytes)));
    }
    if (type !== 'multipart/form-data') throw DomainError.invalid('the attachment must be sent as multipart/form-data or application/octet-stream');
    return this.fromMultipart(req, target);
  }

  private fromMultipart(req: FastifyRequest, target: UploadTarget): Promise<AttachmentDto> {
    return new Promise<AttachmentDto>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: req.headers,
          // One byte over the limit: even a part busboy cuts there is refused by repo-service's own check.
          limits: { fileSize: this.partLimitBytes, files: 8, fields: 32, fieldSize: 64 * 1024, parts: 64 },
        });
      } catch (err) {
        return reject(DomainError.invalid(`invalid multipart body: ${(err as Error).message}`));
      }
      let started = false;
      let file: Transform | null = null;
      const settle = settleOnce(resolve, reject);
      parser.on('file', (field, part, info) => {
        if (field !== 'attachment' || started) {
          part.resume();
          return;
        }
        started = true;
        const upload = this.startPart(target, target.name || info.filename || '', part);
        file = upload.stream;
        upload.done.then((dto) => settle(null, dto), settle);
      });
      parser.on('error', (err: Error) => {
        // A cut or malformed body: the part being streamed must not end as if complete.
        file?.destroy(err);
        settle(DomainError.invalid(`invalid multipart body: ${err.message}`));
      });
      parser.on('close', () => {
        if (!started) settle(DomainError.invalid('attachment is required: send the file in the form field "attachment"'));
      });
      req.raw.pipe(parser);
    });
  }

  /** One multipart file part (the web's release form uses it too); a 413 past `[attachment] MAX_SIZE`. */
  uploadPart(target: UploadTarget, name: string, part: Readable): Promise<AttachmentDto> {
    return this.startPart(target, name, part).done;
  }

  /** busboy's `fileSize` limit for a part: one byte over the limit, so a cut part is refused by repo-service too. */
  get partLimitBytes(): number {
    return this.maxBytes + 1;
  }

  private startPart(target: UploadTarget, name: string, part: Readable): { stream: Transform | null; done: Promise<AttachmentDto> } {
    const problem = nameProblem(name);
    if (problem) {
      part.resume();
      return { stream: null, done: Promise.reject(problem) };
    }
    // busboy ends a file cut at the limit normally: the limit event must abort the upstream request first.
    const limited = feed(part, new Transform({ transform: (chunk: Buffer, _e, done) => done(null, chunk) }));
    part.on('limit', () => limited.destroy(tooLarge(this.maxBytes)));
    part.on('error', (err: Error) => limited.destroy(err));
    return { stream: limited, done: this.send(target, name, limited) };
  }

  private send(target: UploadTarget, name: string, body: Readable): Promise<AttachmentDto> {
    const query = new URLSearchParams({ repo: String(target.repo.id), release: String(target.releaseId), name });
    const headers = {
      ...internalCallHeaders(this.common.internalToken),
      [INTERNAL_HEADERS.actorId]: String(target.actorId),
      [INTERNAL_HEADERS.access]: target.access,
      'content-type': 'application/octet-stream',
    };
    return new Promise<AttachmentDto>((resolve, reject) => {
      const settle = settleOnce(resolve, reject);
      let responded = false;
      const upstream: ClientRequest = this.endpoint.request(`${INTERNAL_ATTACHMENTS_PATH}?${query}`, 'POST', headers);
      upstream.once('response', (res: IncomingMessage) => {
        // repo-service's answer decides, also when it answers (404, 423) before the body is through.
        responded = true;
        this.answer(res).then((dto) => settle(null, dto), settle);
      });
      upstream.on('error', (err: Error) => {
        if (responded) return;
        this.logger.warn(`internal attachment upload ended early: ${err.message}`);
        settle(new DomainError(ErrorCode.UNAVAILABLE, 'the repository service cannot store the attachment'));
      });
      upstream.on('close', () => {
        if (!responded) settle(DomainError.invalid('the upload was interrupted'));
      });
      pipeline(body, upstream).catch((err: unknown) => {
        // Too large, or the client went away: abort, so repo-service discards what it has written.
        if (err instanceof PayloadTooLargeException) settle(err);
        upstream.destroy();
      });
    });
  }

  private async answer(res: IncomingMessage): Promise<AttachmentDto> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res) {
      size += (chunk as Buffer).length;
      if (size > MAX_ANSWER_BYTES) {
        res.destroy();
        throw new DomainError(ErrorCode.INTERNAL, 'internal attachment answer too large');
      }
      chunks.push(chunk as Buffer);
    }
    let parsed: { code?: string; message?: string } & Partial<AttachmentDto>;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof parsed;
    } catch {
      throw new DomainError(ErrorCode.INTERNAL, `internal attachment endpoint answered ${res.statusCode} without JSON`);
    }
    if (res.statusCode === 201) return parsed as AttachmentDto;
    if (parsed.code && ERROR_CODES.has(parsed.code)) throw new DomainError(parsed.code as ErrorCode, parsed.message ?? '');
    throw new DomainError(ErrorCode.INTERNAL, `internal attachment endpoint answered ${res.statusCode}`);
  }
}
