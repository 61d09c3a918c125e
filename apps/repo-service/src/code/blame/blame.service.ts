import { Injectable } from '@nestjs/common';
import { BLAME_MAX_BYTES, DomainError, type BlameReply, type BlameRequest } from '@cairn/contracts';
import { blameFile, lookupPaths, sanitizeTreePath } from '@cairn/git';
import { GitReadContext } from '../../git-core/git/git-read-context.js';

/** A blame walks history: a pathological file must not pin a git process. */
const BLAME_TIMEOUT_MS = 30_000;
/** The lines' JSON may take this much of a bus reply (control characters escape to six bytes each). */
const LINES_REPLY_BUDGET = 640 * 1024;
/** Porcelain output per line is a header (~50 bytes) plus the line: bounded well above what BLAME_MAX_BYTES gives. */
const BLAME_MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** The file's lines come from the blob (one pooled read); ranges and commits from the porcelain output. */
@Injectable()
export class BlameService {
  constructor(private readonly git: GitReadContext) {}

  async blame(req: BlameRequest): Promise<BlameReply> {
    const path = sanitizeTreePath(req.path);
    if (!path || req.repo.empty) throw DomainError.notFound('file not found');
    const repoPath = this.git.pathOf(req.repo);
    const ref = await this.git.resolveOrNotFound(req.repo, repoPath, req.ref);
    const [entry] = await lookupPaths(this.git.pool, repoPath, ref.commit, [path]);
    if (!entry || entry.kind !== 'file') throw DomainError.notFound('file not found');
    const info = await this.git.pool.one(repoPath, { op: 'info', object: entry.oid });
    const size = info?.size ?? 0;
    const reply: BlameReply = { commit: ref.commit, path, size, lines: [], ranges: [], commits: [], tooLarge: false, binary: false };
    if (size > BLAME_MAX_BYTES) return { ...reply, tooLarge: true };
    const blob = await this.git.pool.one(repoPath, { op: 'contents', object: entry.oid });
    const bytes = blob?.data ?? Buffer.alloc(0);
    if (bytes.subarray(0, 8000).includes(0)) return { ...reply, binary: true };
    const text = bytes.toString('utf8');
    const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n');
    if (Buffer.byteLength(JSON.stringify(lines)) > LINES_REPLY_BUDGET) return { ...reply, tooLarge: true };
    const blamed = await blameFile(repoPath, ref.commit, path, { timeoutMs: BLAME_TIMEOUT_MS, maxOutputBytes: BLAME_MAX_OUTPUT_BYTES });
    return { ...reply, lines, ...blamed };
  }
}
