import { Injectable } from '@nestjs/common';
import { DomainError, isValidRefOrSha, type CommitDiffReply, type GetCommitDiffRequest } from '@cairn/contracts';
import { GitCommandError, runGit } from '@cairn/platform';
import { GitReadContext } from '../git/git-read-context.js';
import { resolveRef } from '../git/refs.js';

/** A diff stops here even when the caller would take more (a pathological commit must not pin a git process). */
const DIFF_TIMEOUT_MS = 20_000;

/**
 * One commit's patch against its first parent (a root commit against the empty tree), renames detected, for the
 * web UI's commit page. Git is stopped as soon as the patch outgrows the caller's cap: the reply then says
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
    const args = [
      'diff-tree', '-p', '--root', '--no-color', '--no-ext-diff', '--no-textconv', '-M', '--first-parent',
      '--full-index', '--no-commit-id', resolved.commit,
    ];
    try {
      const run = await runGit(repoPath, args, { maxStdoutBytes: req.maxBytes, timeoutMs: DIFF_TIMEOUT_MS });
      if (run.timedOut) return { sha: resolved.commit, patch: '', tooLarge: true };
      if (run.code !== 0) throw new GitCommandError('diff-tree', run.code, run.stderr);
      return { sha: resolved.commit, patch: run.stdout.toString('utf8'), tooLarge: false };
    } catch (err) {
      if (err instanceof GitCommandError && err.code === null && err.stderr.startsWith('output larger than')) {
        return { sha: resolved.commit, patch: '', tooLarge: true };
      }
      throw err;
    }
  }
}
