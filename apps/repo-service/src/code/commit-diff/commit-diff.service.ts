import { Injectable } from '@nestjs/common';
import { DomainError, isObjectId, isValidRefOrSha, type CommitDiffReply, type GetCommitDiffRequest } from '@cairn/contracts';
import { GitCommandError, runGit } from '@cairn/platform';
import { GitReadContext } from '../../git-core/git/git-read-context.js';
import { resolveRef } from '../../git-core/git/refs.js';

/** A diff stops here even when the caller would take more (a pathological commit must not pin a git process). */
const DIFF_TIMEOUT_MS = 20_000;

/**
 * One commit's patch against its first parent (a root commit against the empty tree), or against its merge base with
 * `base` (a compare page, a pull request's files), renames detected, for the web UI. Git is stopped as soon as the patch outgrows the caller's cap: the reply then says
 * `tooLarge` rather than carrying a cut patch (a half hunk would render as a wrong diff).
 */
@Injectable()
export class CommitDiffService {
  constructor(private readonly git: GitReadContext) {}

  async diff(req: GetCommitDiffRequest): Promise<CommitDiffReply> {
    if (!isValidRefOrSha(req.sha)) throw DomainError.unprocessable(`no valid ref or sha: ${req.sha}`);
    const repoPath = this.git.pathOf(req.repo);
    const resolved = req.repo.empty ? null : await resolveRef(this.git.pool, repoPath, req.sha);
    if (!resolved) throw DomainError.notFound(`commit "${req.sha}" not found`);
    const sha = resolved.commit;
    const from = req.base === undefined ? await this.firstParent(repoPath, sha) : await this.mergeBase(req, repoPath, sha);
    const common = ['--no-color', '--no-ext-diff', '--no-textconv', '-M', '--full-index', '--no-commit-id'];
    const args = req.base === undefined
      ? ['diff-tree', '-p', '--root', '--first-parent', ...common, sha]
      : ['diff-tree', '-p', ...common, from!, sha];
    try {
      const run = await runGit(repoPath, args, { maxStdoutBytes: req.maxBytes, timeoutMs: DIFF_TIMEOUT_MS });
      if (run.timedOut) return { sha, from, patch: '', tooLarge: true };
      if (run.code !== 0) throw new GitCommandError('diff-tree', run.code, run.stderr);
      return { sha, from, patch: run.stdout.toString('utf8'), tooLarge: false };
    } catch (err) {
      if (err instanceof GitCommandError && err.code === null && err.stderr.startsWith('output larger than')) {
        return { sha, from, patch: '', tooLarge: true };
      }
      throw err;
    }
  }

  private async firstParent(repoPath: string, sha: string): Promise<string | null> {
    const run = await runGit(repoPath, ['rev-parse', '--verify', '-q', '--end-of-options', `${sha}^`]);
    const oid = run.stdout.toString('utf8').trim();
    return run.code === 0 && isObjectId(oid) ? oid : null;
  }

  /** The merge base of `base` and `sha`; 404 for an unknown base, 422 for unrelated histories. */
  private async mergeBase(req: GetCommitDiffRequest, repoPath: string, sha: string): Promise<string> {
    const base = req.base!;
    if (!isValidRefOrSha(base)) throw DomainError.unprocessable(`no valid ref or sha: ${base}`);
    const resolved = await resolveRef(this.git.pool, repoPath, base);
    if (!resolved) throw DomainError.notFound(`base "${base}" not found`);
    const run = await runGit(repoPath, ['merge-base', '--end-of-options', resolved.commit, sha]);
    const oid = run.stdout.toString('utf8').trim();
    if (run.code !== 0 || !isObjectId(oid)) throw DomainError.unprocessable(`"${base}" and "${req.sha}" have no history in common`);
    return oid;
  }
}
