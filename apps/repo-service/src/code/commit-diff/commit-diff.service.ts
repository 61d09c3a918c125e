import { Injectable } from '@nestjs/common';
import { DomainError, isValidRefOrSha, type CommitDiffReply, type GetCommitDiffRequest } from '@cairn/contracts';
import { commitPatch, firstParent, mergeBase, resolveRef } from '@cairn/git';
import { GitReadContext } from '../../git-core/git/git-read-context.js';

/** A diff stops here even when the caller would take more (a pathological commit must not pin a git process). */
const DIFF_TIMEOUT_MS = 20_000;

// Git stops as soon as the patch outgrows the caller's cap: the reply says `tooLarge` rather than carrying a cut patch.
@Injectable()
export class CommitDiffService {
  constructor(private readonly git: GitReadContext) {}

  async diff(req: GetCommitDiffRequest): Promise<CommitDiffReply> {
    if (!isValidRefOrSha(req.sha)) throw DomainError.unprocessable(`no valid ref or sha: ${req.sha}`);
    const repoPath = this.git.pathOf(req.repo);
    const resolved = req.repo.empty ? null : await resolveRef(this.git.pool, repoPath, req.sha);
    if (!resolved) throw DomainError.notFound(`commit "${req.sha}" not found`);
    const sha = resolved.commit;
    const from = req.base === undefined ? await firstParent(repoPath, sha) : await this.mergeBase(req, repoPath, sha);
    // Without a base: against the first parent as git sees it (`--root --first-parent`), not the id read above.
    const against = req.base === undefined ? null : from;
    return { sha, from, ...(await commitPatch(repoPath, sha, against, { maxBytes: req.maxBytes, timeoutMs: DIFF_TIMEOUT_MS })) };
  }

  /** The merge base of `base` and `sha`; 404 for an unknown base, 422 for unrelated histories. */
  private async mergeBase(req: GetCommitDiffRequest, repoPath: string, sha: string): Promise<string> {
    const base = req.base!;
    if (!isValidRefOrSha(base)) throw DomainError.unprocessable(`no valid ref or sha: ${base}`);
    const resolved = await resolveRef(this.git.pool, repoPath, base);
    if (!resolved) throw DomainError.notFound(`base "${base}" not found`);
    const oid = await mergeBase(repoPath, resolved.commit, sha);
    if (!oid) throw DomainError.unprocessable(`"${base}" and "${req.sha}" have no history in common`);
    return oid;
  }
}
