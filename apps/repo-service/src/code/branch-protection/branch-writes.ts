import { isZeroId } from '@cairn/contracts';
import { changedPaths, commitsAdded, isAncestor, parseCommitObject, readRawCommit } from '@cairn/git';
import type { CommitToVerify } from '../../git-core/signatures/commit-verifier.js';
import type { BranchProtectionRow } from './branch-protection.repository.js';
import type { BranchWrite } from './push-policy.js';
import type { QuarantineEnv } from '../../git-core/transport/transport-ports.js';

/** The most new commits whose signatures a push is checked for (beyond: refused, as unverifiable). */
const MAX_VERIFIED_COMMITS = 1000;
const MAX_CHANGED_PATHS = 100_000;

/** Deletion, force push, changed paths and, when required, the first new commit whose signature does not verify. */
export async function describeBranchWrite(
  dir: string,
  env: QuarantineEnv,
  update: { branch: string; old: string; new: string },
  rule: BranchProtectionRow,
  verify: (commits: CommitToVerify[]) => Promise<Map<string, boolean>>,
): Promise<BranchWrite> {
  const write: BranchWrite = { branch: update.branch, deletes: isZeroId(update.new), forces: false, changedPaths: [], unverifiedCommit: null };
  if (write.deletes) return write;
  const created = isZeroId(update.old);
  if (!created) {
    write.forces = !(await isAncestor(dir, update.old, update.new, { env }));
    if (rule.protectedFilePatterns.trim() || rule.unprotectedFilePatterns.trim()) {
      write.changedPaths = (await changedPaths(dir, update.old, update.new, { env })).slice(0, MAX_CHANGED_PATHS);
    }
  }
  if (rule.requireSignedCommits) write.unverifiedCommit = await firstUnverified(dir, env, update, created, verify);
  return write;
}

async function firstUnverified(
  dir: string,
  env: QuarantineEnv,
  update: { old: string; new: string },
  created: boolean,
  verify: (commits: CommitToVerify[]) => Promise<Map<string, boolean>>,
): Promise<string | null> {
  // The commits the branch gains: oldest first, so the first refusal names the earliest bad commit.
  const shas = await commitsAdded(dir, created ? null : update.old, update.new, MAX_VERIFIED_COMMITS + 1, { env });
  if (shas.length > MAX_VERIFIED_COMMITS) return shas[MAX_VERIFIED_COMMITS];
  const commits: CommitToVerify[] = [];
  for (const sha of shas) {
    const raw = await readRawCommit(dir, sha, { env });
    if (!raw) return sha;
    commits.push({ sha, commit: parseCommitObject(raw) });
  }
  const verified = await verify(commits);
  return shas.find((sha) => verified.get(sha) !== true) ?? null;
}
