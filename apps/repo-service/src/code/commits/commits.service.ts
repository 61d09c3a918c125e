import { Injectable } from '@nestjs/common';
import {
  DomainError, isValidRefOrSha, MAX_PAGE_SIZE, toPaging, type CommitDto, type CommitListReply, type CommitOptions,
  type CompareDto, type CompareRequest, type GetCommitRequest, type ListCommitsRequest, type RepoRefDto,
} from '@cairn/contracts';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import {
  hasBranches, type HistoryCommit, historyCommits, historyCountCache, type HistoryFilter, logDiffs, logPage,
  type LogPageOptions, pathHasHistory, readCommitObjects, resolveRef, sanitizeTreePath, walkHistory,
} from '@cairn/git';
import { CommitVerifier } from '../../git-core/signatures/commit-verifier.js';
import { splitBaseHead } from './basehead.js';
import { CommitUserDirectory } from './commit-users.js';
import { toCommitDto } from './commits.mapper.js';
import { parseRfc3339 } from '@cairn/contracts';

const EMPTY_REPOSITORY = 'Git Repository is empty.';

/** Parses `since`/`until` (RFC 3339 only) or fails with Gitea's 422 message. */
export function parseDateFilter(name: 'since' | 'until', value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const t = parseRfc3339(value);
  if (!t) throw DomainError.unprocessable(`invalid '${name}' format, expected ISO 8601 (RFC3339)`);
  // Commit dates are whole seconds: a lower bound with a fraction starts at the next second (inclusive bounds).
  return name === 'since' && t.fractional ? t.seconds + 1 : t.seconds;
}

/** The total counts exactly the listed commits (Gitea 1.27); cached under an immutable key, so one walk per page. */
@Injectable()
export class CommitsService {
  constructor(
    private readonly git: GitReadContext,
    private readonly users: CommitUserDirectory,
    private readonly verifier: CommitVerifier,
  ) {}

  async list(req: ListCommitsRequest): Promise<CommitListReply> {
    const f = req.filter;
    // Validated before anything else, the empty-repository check included (as Gitea).
    let since = parseDateFilter('since', f.since);
    const until = parseDateFilter('until', f.until);
    if (req.repo.empty) throw DomainError.conflict(EMPTY_REPOSITORY);

    const { page, limit } = toPaging(f);
    const path = f.path ? sanitizeTreePath(f.path) : '';
    const pageSize = path ? this.git.commitsRangeSize : Math.min(limit, MAX_PAGE_SIZE, this.git.commitsRangeSize);

    const repoPath = this.git.pathOf(req.repo);
    const start = await this.startCommit(req.repo, repoPath, f.sha);
    if (path === null) throw DomainError.notFound('not found');
    let not: string | undefined;
    if (f.not) {
      const resolved = isValidRefOrSha(f.not) ? await resolveRef(this.git.pool, repoPath, f.not) : null;
      if (!resolved) throw DomainError.notFound(`ref "${f.not}" not found`);
      not = resolved.commit;
    }
    if (since !== undefined && since <= 0) since = undefined;
    const filter: HistoryFilter = { commit: start, not, path: path || undefined, sinceSeconds: since, untilSeconds: until };
    const nothing = (until !== undefined && until < 0) || (since !== undefined && until !== undefined && since > until);

    const [total, commits] = nothing
      ? [0, [] as HistoryCommit[]]
      : await this.page(repoPath, filter, { skip: (page - 1) * pageSize, limit: pageSize, ...req.options });
    // A path without any history is 404; a path with history but none in the date range is an empty page.
    if (path && total === 0 && !(await pathHasHistory(repoPath, start, path))) {
      throw DomainError.notFound('not found');
    }
    return { items: await this.toDtos(req.repo, commits, req.options), total, page, pageSize };
  }

  private async page(
    repoPath: string,
    filter: HistoryFilter,
    page: LogPageOptions,
  ): Promise<[number, HistoryCommit[]]> {
    const cached = historyCountCache.get(repoPath, filter);
    if (cached !== undefined) {
      const listed = await logPage(repoPath, filter, page);
      const objects = await readCommitObjects(this.git.pool, repoPath, listed.map((c) => c.sha));
      return [cached, historyCommits(listed, objects)];
    }
    // The diff log and the commit objects wait for the walk's ids, side by side.
    const walk = walkHistory(repoPath, filter, page);
    const ids = walk.then((w) => w.ids);
    const [walked, listed, objects] = await Promise.all([
      walk,
      logDiffs(repoPath, ids, page),
      ids.then((list) => readCommitObjects(this.git.pool, repoPath, list)),
    ]);
    historyCountCache.set(repoPath, filter, walked.total);
    return [walked.total, historyCommits(listed, objects)];
  }

  async get(req: GetCommitRequest): Promise<CommitDto> {
    if (!isValidRefOrSha(req.sha)) throw DomainError.unprocessable(`no valid ref or sha: ${req.sha}`);
    const repoPath = this.git.pathOf(req.repo);
    const resolved = req.repo.empty ? null : await resolveRef(this.git.pool, repoPath, req.sha);
    if (!resolved) throw DomainError.notFound(`commit "${req.sha}" not found`);
    const [listed, objects] = await Promise.all([
      logDiffs(repoPath, [resolved.commit], req.options),
      readCommitObjects(this.git.pool, repoPath, [resolved.commit]),
    ]);
    const [commit] = historyCommits(listed, objects);
    return (await this.toDtos(req.repo, [commit], req.options))[0];
  }

  /** Gitea's `CompareDiff` (`head ^base`), bounded to the newest `COMMITS_RANGE_SIZE`; `total_commits` counts all. */
  async compare(req: CompareRequest): Promise<CompareDto> {
    const { base, head } = splitBaseHead(req.basehead, req.repo);
    const repoPath = this.git.pathOf(req.repo);
    const [from, to] = req.repo.empty
      ? [null, null]
      : await Promise.all([resolveRef(this.git.pool, repoPath, base), resolveRef(this.git.pool, repoPath, head)]);
    if (!from) throw DomainError.notFound(`base ref "${base.slice(0, 200)}" not found`);
    if (!to) throw DomainError.notFound(`head ref "${head.slice(0, 200)}" not found`);
    const options: CommitOptions = { ...req.options, stat: true };
    const limit = Math.min(MAX_PAGE_SIZE, this.git.commitsRangeSize);
    const [total, commits] = await this.page(repoPath, { commit: to.commit, not: from.commit }, { skip: 0, limit, ...options });
    return { total_commits: total, commits: await this.toDtos(req.repo, commits, options) };
  }

  /** The commit to list from: `sha` (branch, tag or commit; 404 when unknown) or the default branch. */
  private async startCommit(repo: RepoRefDto, repoPath: string, sha: string | undefined): Promise<string> {
    if (sha) {
      const resolved = isValidRefOrSha(sha) ? await resolveRef(this.git.pool, repoPath, sha) : null;
      if (!resolved) throw DomainError.notFound(`ref "${sha}" not found`);
      return resolved.commit;
    }
    const resolved = await resolveRef(this.git.pool, repoPath, repo.defaultBranch);
    if (resolved) return resolved.commit;
    // No default branch: an empty repository (no branch at all) is 409, as Gitea; otherwise 404.
    if (!(await hasBranches(repoPath))) throw DomainError.conflict(EMPTY_REPOSITORY);
    throw DomainError.notFound(`default branch "${repo.defaultBranch}" not found`);
  }

  private async toDtos(repo: RepoRefDto, logged: HistoryCommit[], options: CommitOptions): Promise<CommitDto[]> {
    if (logged.length === 0) return [];
    // The users behind the e-mails and the signatures' keys: two identity calls, side by side.
    const [users, verifications] = await Promise.all([
      this.users.byEmails(logged.flatMap((c) => [c.author.email, c.committer.email])),
      options.verification ? this.verifier.verify(repo, logged.map((c) => ({ sha: c.sha, commit: c }))) : null,
    ]);
    const urls = { apiUrl: this.git.apiUrl(repo), htmlUrl: this.git.htmlUrl(repo) };
    return logged.map((c) => toCommitDto(c, urls, users, options, verifications?.get(c.sha) ?? null));
  }
}
