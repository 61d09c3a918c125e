import type { IncomingMessage } from 'node:http';
import { Logger } from '@nestjs/common';
import {
  DomainError, ErrorCode, INTERNAL_ARCHIVE_PATH, INTERNAL_ATTACHMENTS_PATH, INTERNAL_RAW_PATH, type RepoRefDto,
} from '@cairn/contracts';
import type { CommonSettings } from '@cairn/platform';
import { InternalEndpoint, internalCallHeaders } from '../../http/internal-endpoint.js';

const OK: ReadonlySet<number> = new Set([200]);
const ATTACHMENT_ANSWERS: ReadonlySet<number> = new Set([200, 206, 303, 416]);

/** Bytes too large for the bus; blobs are asked by the resolved commit id, so bytes and metadata match. */
export class InternalRawClient {
  private readonly logger = new Logger('InternalRaw');
  private readonly endpoint: InternalEndpoint;

  constructor(private readonly common: CommonSettings) {
    this.endpoint = new InternalEndpoint(common.repoInternalUrl);
  }

  /** Opens the stream; fails with UNAVAILABLE unless repo-service answers 200. The caller consumes or destroys it. */
  open(repo: RepoRefDto, commit: string, path: string): Promise<IncomingMessage> {
    return this.openWith(repo, { ref: commit, path });
  }

  async readBlob(repo: RepoRefDto, oid: string, maxBytes: number): Promise<Buffer> {
    return this.readAll(await this.openWith(repo, { blob: oid }), maxBytes);
  }

  /** The client's `Range` passed on: 200, 206, 416 (past the end) or 303 (SERVE_DIRECT's presigned URL). */
  openAttachment(repo: RepoRefDto, uuid: string, range?: string): Promise<IncomingMessage> {
    return this.openPath(INTERNAL_ATTACHMENTS_PATH, repo, { repo: String(repo.id), uuid }, {
      headers: range ? { range } : {}, answers: ATTACHMENT_ANSWERS,
    });
  }

  openArchive(repo: RepoRefDto, commit: string, format: 'zip' | 'tar.gz'): Promise<IncomingMessage> {
    return this.openPath(INTERNAL_ARCHIVE_PATH, repo, { owner: repo.ownerName, repo: repo.name, commit, format });
  }

  private openWith(repo: RepoRefDto, which: { ref: string; path: string } | { blob: string }): Promise<IncomingMessage> {
    return this.openPath(INTERNAL_RAW_PATH, repo, { owner: repo.ownerName, repo: repo.name, ...which });
  }

  private openPath(
    path: string,
    repo: RepoRefDto,
    query: Record<string, string>,
    { headers = {}, answers = OK }: { headers?: Record<string, string>; answers?: ReadonlySet<number> } = {},
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = this.endpoint.request(`${path}?${new URLSearchParams(query)}`, 'GET', { ...internalCallHeaders(this.common.internalToken), ...headers });
      req.once('response', (res: IncomingMessage) => {
        if (answers.has(res.statusCode ?? 0)) return resolve(res);
        res.resume();
        this.logger.warn(`internal raw endpoint answered ${res.statusCode} for a file of repository ${repo.id}`);
        reject(new DomainError(ErrorCode.UNAVAILABLE, 'the repository service cannot stream this file'));
      });
      req.on('error', (err) => {
        this.logger.error(`internal raw endpoint unreachable: ${err.message}`);
        reject(new DomainError(ErrorCode.UNAVAILABLE, 'the repository service cannot stream this file'));
      });
      req.end();
    });
  }

  async read(repo: RepoRefDto, commit: string, path: string, maxBytes: number): Promise<Buffer> {
    return this.readAll(await this.open(repo, commit, path), maxBytes);
  }

  private async readAll(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        res.destroy();
        throw new DomainError(ErrorCode.INTERNAL, 'blob larger than announced');
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }
}
