import { Injectable, Logger, Optional } from '@nestjs/common';
import {
  DomainError,
  type CommitSummaryDto,
  type ContentsResponseDto,
  type GetContentsReply,
  type GetContentsRequest,
  type GetFileContentsReply,
  type GetFileContentsRequest,
  type GetRawReply,
  type GetRawRequest,
  type RepoRefDto,
} from '@cairn/contracts';
import { CommitUserDirectory, RecentCommitLogins } from '../commits/commit-users.js';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import {
  baseName, countHistory, lastCommitsForPaths, listDirectory, lookupPaths, objectInfos, readBlobs,
  readCommitHeadlines, type ResolvedRef, resolveRefPrefix, sanitizeTreePath, submoduleUrls, type TreeEntry,
} from '@cairn/git';
import { toContentsResponse, type ContentsEntryFacts, type ContentsLinkContext } from './contents.mapper.js';

/** It answers what it found; the time-out is logged. */
const LAST_COMMIT_WALK = { onTimeout: (message: string) => new Logger('LastCommits').warn(message) };

/** NATS caps a message at 1 MiB by default; larger contents are `deferred` and fetched over internal HTTP. */
export const INLINE_CONTENT_BUDGET = 640 * 1024;

/** Gitea reads 1024. */
const SYMLINK_TARGET_BYTES = 1024;
/** A real link target is a path. */
const SYMLINK_MAX_READ = 64 * 1024;

export function base64Length(n: number): number {
  return 4 * Math.ceil(n / 3);
}

const notFound = () => DomainError.notFound('not found');

function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** Lookups through the pooled `cat-file` in a few pipelined round trips; last commits from one bounded `git log`. */
@Injectable()
export class ContentsService {
  private readonly logins: RecentCommitLogins | null;

  constructor(
    private readonly git: GitReadContext,
    // Absent in tests that build the service alone.
    @Optional() users?: CommitUserDirectory,
  ) {
    this.logins = users ? new RecentCommitLogins(users) : null;
  }

  async get(req: GetContentsRequest): Promise<GetContentsReply> {
    const path = sanitizeTreePath(req.path);
    if (path === null || req.repo.empty) throw notFound();
    const repoPath = this.git.pathOf(req.repo);
    const ref = await this.git.resolveOrNotFound(req.repo, repoPath, req.ref);
    const [entry] = await lookupPaths(this.git.pool, repoPath, ref.commit, [path]);
    if (!entry) throw notFound();
    if (entry.kind === 'dir') {
      const dir = await this.listing(repoPath, ref, path, this.links(req, ref));
      if (!req.withCommits) return { commit: ref.commit, dir };
      const shas = dir.map((e) => e.last_commit_sha).filter((s): s is string => s !== null);
      // At the root the newest commit is the resolved one, even when it changed nothing.
      const [{ commits, latest }, historyCount] = await Promise.all([
        this.commitSummaries(repoPath, path === '' ? [ref.commit, ...shas] : shas),
        countHistory(repoPath, { commit: ref.commit, path: path || undefined }),
      ]);
      return { commit: ref.commit, dir, commits, historyCount, latestCommit: path === '' ? ref.commit : latest };
    }
    const { file, deferred } = await this.entryResponse(req.repo, repoPath, ref, path, entry, req.maxBlobSize);
    return { commit: ref.commit, file, ...(deferred ? { deferred } : {}) };
  }

  /** Null for none or a directory; `deferred` when too large for a bus message. */
  async fileAt(
    repo: RepoRefDto,
    ref: ResolvedRef,
    path: string,
    maxBlobSize: number,
  ): Promise<{ file: ContentsResponseDto; deferred: boolean } | null> {
    const repoPath = this.git.pathOf(repo);
    const [entry] = await lookupPaths(this.git.pool, repoPath, ref.commit, [path]);
    if (!entry || entry.kind === 'dir') return null;
    return this.entryResponse(repo, repoPath, ref, path, entry, maxBlobSize);
  }

  private async entryResponse(
    repo: RepoRefDto,
    repoPath: string,
    ref: ResolvedRef,
    path: string,
    entry: TreeEntry,
    maxBlobSize: number,
  ): Promise<{ file: ContentsResponseDto; deferred: boolean }> {
    const [info, lastCommits] = await Promise.all([
      entry.kind === 'submodule' ? null : this.git.pool.one(repoPath, { op: 'info', object: entry.oid }),
      lastCommitsForPaths(repoPath, ref.commit, [path], LAST_COMMIT_WALK),
    ]);
    const size = info?.size ?? 0;
    const facts: ContentsEntryFacts = {
      path,
      type: entry.kind,
      sha: entry.oid,
      size,
      lastCommit: lastCommits.get(path) ?? null,
    };
    let deferred = false;
    if (entry.kind === 'file' && size <= maxBlobSize) {
      if (base64Length(size) > INLINE_CONTENT_BUDGET) {
        deferred = true;
      } else {
        const blob = await this.git.pool.one(repoPath, { op: 'contents', object: entry.oid });
        facts.content = (blob?.data ?? Buffer.alloc(0)).toString('base64');
      }
    }
    if (entry.kind === 'symlink') facts.target = await this.symlinkTarget(repoPath, entry.oid, size);
    if (entry.kind === 'submodule') {
      facts.submoduleUrl = (await submoduleUrls(this.git.pool, repoPath, ref.commit)).get(path) ?? null;
    }
    return { file: toContentsResponse(this.links({ repo }, ref), facts), deferred };
  }

  /** Cut after `pagingNum` entries or before base64 passes `maxResponseSize`; larger blobs without content. */
  async fileContents(req: GetFileContentsRequest): Promise<GetFileContentsReply> {
    const { pagingNum, maxBlobSize, maxResponseSize } = req.limits;
    if (req.repo.empty) throw notFound();
    const repoPath = this.git.pathOf(req.repo);
    const ref = await this.git.resolveOrNotFound(req.repo, repoPath, req.ref);
    const considered = req.files.slice(0, pagingNum).map((p) => {
      const clean = sanitizeTreePath(p);
      return clean === '' ? null : clean;
    });
    const unique = [...new Set(considered.filter((p): p is string => p !== null))];
    const entries = new Map<string, TreeEntry | null>();
    (await lookupPaths(this.git.pool, repoPath, ref.commit, unique)).forEach((e, i) => entries.set(unique[i], e));
    const blobOids = [...entries.values()].filter((e) => e && (e.kind === 'file' || e.kind === 'symlink'));
    const infos = await objectInfos(
      this.git.pool,
      repoPath,
      blobOids.map((e) => e!.oid),
    );

    // Sizes are known, so what is returned is decided before reading anything.
    const planned: ({ path: string; entry: TreeEntry; size: number; withContent: boolean } | null)[] = [];
    let total = 0;
    for (const path of considered) {
      const entry = path === null ? null : entries.get(path);
      if (!path || !entry) {
        planned.push(null);
        continue;
      }
      const size = entry.kind === 'submodule' || entry.kind === 'dir' ? 0 : (infos.get(entry.oid)?.size ?? -1);
      if (size < 0) {
        planned.push(null);
        continue;
      }
      const withContent = entry.kind === 'file' && size <= maxBlobSize;
      total += withContent ? base64Length(size) : 0;
      if (total > maxResponseSize) break;
      planned.push({ path, entry, size, withContent });
    }

    // Inline up to the bus budget; the rest is deferred to internal HTTP.
    let inline = 0;
    const toRead = new Set<string>();
    const deferred: number[] = [];
    planned.forEach((p, i) => {
      if (!p?.withContent) return;
      const len = base64Length(p.size);
      if (toRead.has(p.entry.oid)) return;
      if (inline + len > INLINE_CONTENT_BUDGET) {
        deferred.push(i);
        return;
      }
      inline += len;
      toRead.add(p.entry.oid);
    });
    const paths = [...new Set(planned.filter((p) => p !== null).map((p) => p!.path))];
    const hasSubmodule = planned.some((p) => p?.entry.kind === 'submodule');
    const [blobs, targets, lastCommits, submodules] = await Promise.all([
      readBlobs(this.git.pool, repoPath, [...toRead]),
      this.symlinkTargets(
        repoPath,
        planned.filter((p) => p?.entry.kind === 'symlink').map((p) => ({ oid: p!.entry.oid, size: p!.size })),
      ),
      lastCommitsForPaths(repoPath, ref.commit, paths, LAST_COMMIT_WALK),
      hasSubmodule ? submoduleUrls(this.git.pool, repoPath, ref.commit) : Promise.resolve(new Map<string, string>()),
    ]);
    const links = this.links(req, ref);
    const deferredSet = new Set(deferred);
    const items = planned.map((p, i): ContentsResponseDto | null => {
      if (!p) return null;
      const lastCommit = lastCommits.get(p.path);
      if (!lastCommit) return null; // Gitea: an entry whose last commit cannot be computed is null
      const facts: ContentsEntryFacts = { path: p.path, type: p.entry.kind, sha: p.entry.oid, size: p.size, lastCommit };
      if (p.withContent && !deferredSet.has(i)) facts.content = (blobs.get(p.entry.oid) ?? Buffer.alloc(0)).toString('base64');
      if (p.entry.kind === 'symlink') facts.target = targets.get(p.entry.oid) ?? null;
      if (p.entry.kind === 'submodule') facts.submoduleUrl = submodules.get(p.path) ?? null;
      return toContentsResponse(links, facts);
    });
    return { items, commit: ref.commit, deferred: deferred.filter((i) => items[i] !== null) };
  }

  async raw(req: GetRawRequest): Promise<GetRawReply> {
    const full = sanitizeTreePath(req.path);
    if (!full || req.repo.empty) throw notFound();
    const repoPath = this.git.pathOf(req.repo);
    let ref: ResolvedRef;
    let path = full;
    if (req.ref?.trim()) {
      ref = await this.git.resolveOrNotFound(req.repo, repoPath, req.ref);
    } else {
      const prefixed = await resolveRefPrefix(this.git.pool, repoPath, full);
      if (prefixed) {
        ref = prefixed.ref;
        path = prefixed.path;
      } else {
        ref = await this.git.resolveOrNotFound(req.repo, repoPath, undefined);
      }
    }
    const [entry] = await lookupPaths(this.git.pool, repoPath, ref.commit, [path]);
    if (!entry || (entry.kind !== 'file' && entry.kind !== 'symlink')) throw notFound();
    const info = await this.git.pool.one(repoPath, { op: 'info', object: entry.oid });
    if (!info) throw notFound();
    const reply: GetRawReply = {
      commit: ref.commit,
      path,
      name: baseName(path),
      sha: entry.oid,
      size: info.size,
      type: entry.kind,
      contentBase64: null,
    };
    if (info.size <= req.maxInlineBytes) {
      const blob = await this.git.pool.one(repoPath, { op: 'contents', object: entry.oid });
      const data = blob?.data ?? Buffer.alloc(0);
      reply.contentBase64 = data.toString('base64');
    }
    return reply;
  }

  /** Headlines and logins from caches; newest by committer date, ties to the one that is not a parent. */
  private async commitSummaries(repoPath: string, shas: string[]): Promise<{ commits: CommitSummaryDto[]; latest?: string }> {
    const unique = [...new Set(shas)];
    const headlines = await readCommitHeadlines(this.git.pool, repoPath, unique);
    const logins = this.logins ? await this.logins.logins([...headlines.values()].map((c) => c.authorEmail)) : new Map<string, null>();
    const commits = unique.map((sha): CommitSummaryDto => {
      const c = headlines.get(sha)!;
      return {
        sha,
        title: c.title,
        authorName: c.authorName,
        authorLogin: logins.get(c.authorEmail.toLowerCase()) ?? null,
        authorDate: c.authorDate,
        committerDate: c.committerDate,
      };
    });
    const newestTime = Math.max(...commits.map((c) => Date.parse(c.committerDate)));
    const candidates = commits.filter((c) => Date.parse(c.committerDate) === newestTime);
    const parents = new Set(candidates.flatMap((c) => headlines.get(c.sha)!.parents));
    const latest = candidates.find((c) => !parents.has(c.sha)) ?? candidates[0];
    return { commits, latest: latest?.sha };
  }

  private links(req: { repo: GetContentsRequest['repo'] }, ref: ResolvedRef): ContentsLinkContext {
    return { apiUrl: this.git.apiUrl(req.repo), htmlUrl: this.git.htmlUrl(req.repo), ref };
  }

  /** Gitea lists them in tree order, each with its last commit. */
  private async listing(
    repoPath: string,
    ref: ResolvedRef,
    dir: string,
    links: ContentsLinkContext,
  ): Promise<ContentsResponseDto[]> {
    const entries = await listDirectory(this.git.pool, repoPath, ref.commit, dir);
    if (!entries) throw notFound();
    const blobs = entries.filter((e) => e.kind === 'file' || e.kind === 'symlink');
    const paths = entries.map((e) => joinPath(dir, e.name));
    const [infos, lastCommits, submodules] = await Promise.all([
      objectInfos(
        this.git.pool,
        repoPath,
        blobs.map((e) => e.oid),
      ),
      lastCommitsForPaths(repoPath, ref.commit, paths, LAST_COMMIT_WALK),
      entries.some((e) => e.kind === 'submodule')
        ? submoduleUrls(this.git.pool, repoPath, ref.commit)
        : Promise.resolve(new Map<string, string>()),
    ]);
    const targets = await this.symlinkTargets(
      repoPath,
      entries.filter((e) => e.kind === 'symlink').map((e) => ({ oid: e.oid, size: infos.get(e.oid)?.size ?? 0 })),
    );
    return entries.map((e, i) =>
      toContentsResponse(links, {
        path: paths[i],
        type: e.kind,
        sha: e.oid,
        size: e.kind === 'file' || e.kind === 'symlink' ? (infos.get(e.oid)?.size ?? 0) : 0,
        lastCommit: lastCommits.get(paths[i]) ?? null,
        target: e.kind === 'symlink' ? (targets.get(e.oid) ?? null) : null,
        submoduleUrl: e.kind === 'submodule' ? (submodules.get(paths[i]) ?? null) : null,
      }),
    );
  }

  private async symlinkTarget(repoPath: string, oid: string, size: number): Promise<string | null> {
    return (await this.symlinkTargets(repoPath, [{ oid, size }])).get(oid) ?? null;
  }

  private async symlinkTargets(repoPath: string, links: { oid: string; size: number }[]): Promise<Map<string, string>> {
    const readable = links.filter((l) => l.size <= SYMLINK_MAX_READ).map((l) => l.oid);
    const blobs = await readBlobs(this.git.pool, repoPath, readable);
    const out = new Map<string, string>();
    for (const [oid, data] of blobs) out.set(oid, data.subarray(0, SYMLINK_TARGET_BYTES).toString('utf8'));
    return out;
  }
}
