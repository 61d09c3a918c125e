import { isZeroId } from '@cairn/contracts';
import { runGit, runGitText } from '@cairn/platform';
import { parseCommitObject } from '../../git-core/git/commit-object.js';
import type { CommitToVerify } from '../../git-core/signatures/commit-verifier.js';
import type { BranchProtectionRow } from './branch-protection.repository.js';
import type { BranchWrite } from './push-policy.js';
import type { QuarantineEnv } from '../../git-core/transport/transport-ports.js';

/** The most new commits whose signatures a push is checked for (beyond: refused, as unverifiable). */
const MAX_VERIFIED_COMMITS = 1000;
/** The most changed paths looked at per update. */
const MAX_CHANGED_PATHS = 100_000;

/**
 * Facts about one update of a protected branch, read with git (argument vectors; ids validated by the caller): is it
 * a deletion or a force push, which paths change, and — when the rule requires it — the first new commit whose
 * signature does not verify (`verify` answers for commits read from the push's quarantine).
 */
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
    const behind = await runGitText(dir, ['rev-list', '--max-count=1', update.old, `^${update.new}`, '--'], { env });
    write.forces = behind.trim() !== '';
    if (rule.protectedFilePatterns.trim() || rule.unprotectedFilePatterns.trim()) {
      const diff = await runGitText(dir, ['diff', '--name-only', '-z', '--no-renames', update.old, update.new, '--'], {
        env,
        maxStdoutBytes: 64 * 1024 * 1024,
      });
      write.changedPaths = diff.split('\0').filter(Boolean).slice(0, MAX_CHANGED_PATHS);
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
  const range = created ? [update.new, '--not', '--all'] : [`${update.old}..${update.new}`];
  const list = await runGitText(dir, ['rev-list', '--reverse', `--max-count=${MAX_VERIFIED_COMMITS + 1}`, ...range, '--'], { env });
  const shas = list.split('\n').filter(Boolean);
  if (shas.length > MAX_VERIFIED_COMMITS) return shas[MAX_VERIFIED_COMMITS];
  const commits: CommitToVerify[] = [];
  for (const sha of shas) {
    const run = await runGit(dir, ['cat-file', 'commit', sha], { env });
    if (run.code !== 0) return sha;
    commits.push({ sha, commit: parseCommitObject(run.stdout) });
  }
  const verified = await verify(commits);
  return shas.find((sha) => verified.get(sha) !== true) ?? null;
}
