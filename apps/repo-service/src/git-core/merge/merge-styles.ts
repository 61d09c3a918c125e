import {
  type CommitSigning, commitsToReplay, commitTree, type GitIdentity, isAncestor, mergeTree, replayCommits, treeOf,
} from '@cairn/git';

/** The outcome of computing a merge or an update (nothing is moved yet: the caller moves the ref). */
export type StyleOutcome =
  | { kind: 'ok'; newTip: string }
  | { kind: 'up-to-date' }
  | { kind: 'conflict'; files: string[] }
  | { kind: 'not-possible'; message: string }
  | { kind: 'error'; message: string };

export interface MergeInput {
  dir: string;
  base: string;
  head: string;
  message: string;
  /** Who merges (committer of every new commit; author of merge commits). */
  merger: GitIdentity;
  /** Author of a squash commit (the pull request's author). */
  squashAuthor: GitIdentity;
  /** How the merge or squash commit is signed (`[repository.signing] MERGES`); replayed commits are never signed. */
  signing?: CommitSigning | null;
  timeoutMs?: number;
}

/**
* The new base tip for a merge style, with plumbing only (nothing moved): `merge` (two parents), `squash` (one),
* `rebase` (replayed), `rebase-merge` (replayed, then a merge commit), `fast-forward-only`.
*/
export async function computeMerge(style: string, i: MergeInput): Promise<StyleOutcome> {
  switch (style) {
    case 'merge':
    case 'squash': {
      const merged = await mergeTree(i.dir, i.base, i.head, { timeoutMs: i.timeoutMs });
      if (merged.kind === 'conflict') return { kind: 'conflict', files: merged.files };
      if (merged.kind === 'error') return merged;
      if (style === 'merge') {
        return { kind: 'ok', newTip: await commitTree(i.dir, merged.tree, [i.base, i.head], i.message, i.merger, i.merger, i.signing) };
      }
      if (merged.tree === (await treeOf(i.dir, i.base))) {
        return { kind: 'not-possible', message: 'there is nothing to squash: the head adds no changes to the base' };
      }
      return { kind: 'ok', newTip: await commitTree(i.dir, merged.tree, [i.base], i.message, i.squashAuthor, i.merger, i.signing) };
    }
    case 'fast-forward-only':
      if (!(await isAncestor(i.dir, i.base, i.head))) {
        return { kind: 'not-possible', message: 'fast-forward-only merge is not possible: the base branch has commits the head does not have' };
      }
      return { kind: 'ok', newTip: i.head };
    case 'rebase':
    case 'rebase-merge': {
      const rebased = await rebaseOnto(i.dir, i.base, i.head, i.merger, i.timeoutMs);
      if (rebased.kind !== 'ok') return rebased;
      if (style === 'rebase') return rebased;
      if (rebased.newTip === i.base) return { kind: 'not-possible', message: 'there is nothing to merge: every commit is already in the base' };
      const tree = await treeOf(i.dir, rebased.newTip);
      return { kind: 'ok', newTip: await commitTree(i.dir, tree, [i.base, rebased.newTip], i.message, i.merger, i.merger, i.signing) };
    }
    default:
      return { kind: 'not-possible', message: `merge style "${style}" is not supported` };
  }
}

/** The head's commits replayed onto `base` (the head itself when it already contains the base). */
async function rebaseOnto(dir: string, base: string, head: string, committer: GitIdentity, timeoutMs?: number): Promise<StyleOutcome> {
  if (await isAncestor(dir, base, head)) return { kind: 'ok', newTip: head };
  const commits = await commitsToReplay(dir, base, head);
  const replayed = await replayCommits(dir, base, commits, committer, timeoutMs);
  if (replayed.kind === 'conflict') return { kind: 'conflict', files: replayed.files };
  if (replayed.kind === 'error') return replayed;
  return { kind: 'ok', newTip: replayed.tip };
}

/** "Update branch": `merge` keeps the head's history with a merge commit, `rebase` replays it onto the base. */
export async function computeUpdate(
  style: 'merge' | 'rebase',
  i: {
    dir: string; base: string; head: string; baseBranch: string; headBranch: string; merger: GitIdentity;
    signing?: CommitSigning | null; timeoutMs?: number;
  },
): Promise<StyleOutcome> {
  if (await isAncestor(i.dir, i.base, i.head)) return { kind: 'up-to-date' };
  if (style === 'rebase') return rebaseOnto(i.dir, i.base, i.head, i.merger, i.timeoutMs);
  const merged = await mergeTree(i.dir, i.head, i.base, { timeoutMs: i.timeoutMs });
  if (merged.kind === 'conflict') return { kind: 'conflict', files: merged.files };
  if (merged.kind === 'error') return merged;
  const message = `Merge branch '${i.baseBranch}' into ${i.headBranch}\n`;
  return { kind: 'ok', newTip: await commitTree(i.dir, merged.tree, [i.head, i.base], message, i.merger, i.merger, i.signing) };
}
