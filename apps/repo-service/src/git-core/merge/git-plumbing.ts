import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isObjectId, isValidRefNameAfterPrefix, parseMergeTreeOutput, zeroIdLike, type MergeTreeOutcome } from '@cairn/contracts';
import { rpcDeadlineSignal, runGit, runGitText } from '@cairn/platform';
import { signedCommitParts, type CommitSigning } from './commit-signer.js';

/** Throws unless `oid` is a full lower-case object id (the only revisions this module hands to git). */
export function assertOid(oid: string): string {
  if (!isObjectId(oid)) throw new Error(`not an object id: ${JSON.stringify(oid).slice(0, 80)}`);
  return oid;
}

/**
 * `refs/heads/<branch>` for any branch git allows (a pushed `-x` included: the full ref is never an option); throws
 * otherwise.
 */
export function branchRef(branch: string): string {
  if (!isValidRefNameAfterPrefix(branch)) throw new Error(`invalid branch name: ${JSON.stringify(branch).slice(0, 120)}`);
  return `refs/heads/${branch}`;
}

/** `refs/pull/<n>/head`. */
export function pullHeadRef(index: number): string {
  if (!Number.isSafeInteger(index) || index < 1) throw new Error(`invalid pull request number ${index}`);
  return `refs/pull/${index}/head`;
}

/** A git identity; `date` in git's raw form (`@<unix> <±hhmm>`), now when absent. */
export interface GitIdentity {
  name: string;
  email: string;
  date?: string;
}

/** Removes what git would refuse or mangle in a name or e-mail (angle brackets, newlines). */
function clean(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[<>\x00-\x1f]/g, ' ').replace(/\s+/g, ' ').trim();
}

function identityEnv(author: GitIdentity, committer: GitIdentity): Record<string, string | undefined> {
  return {
    GIT_AUTHOR_NAME: clean(author.name) || 'Cairn',
    GIT_AUTHOR_EMAIL: clean(author.email) || 'cairn@localhost',
    GIT_AUTHOR_DATE: author.date,
    GIT_COMMITTER_NAME: clean(committer.name) || 'Cairn',
    GIT_COMMITTER_EMAIL: clean(committer.email) || 'cairn@localhost',
    GIT_COMMITTER_DATE: committer.date,
  };
}

/** The commit a branch points at, or null when the branch does not exist. */
export async function resolveBranch(dir: string, branch: string): Promise<string | null> {
  const r = await runGit(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${branchRef(branch)}^{commit}`]);
  if (r.code !== 0) return null;
  const oid = r.stdout.toString('utf8').trim();
  return isObjectId(oid) ? oid : null;
}

/** The best common ancestor of two commits, or null when they share no history. */
export async function mergeBase(dir: string, a: string, b: string): Promise<string | null> {
  const r = await runGit(dir, ['merge-base', '--end-of-options', assertOid(a), assertOid(b)]);
  if (r.code !== 0) return null;
  const oid = r.stdout.toString('utf8').trim();
  return isObjectId(oid) ? oid : null;
}

/**
 * Copies a commit and its history from another repository of the same storage into `dir` (a fork's pull-request
 * head into the base repository): one local `git fetch` of the object id, writing no ref (the caller points
 * `refs/pull/N/head` at it), without the automatic maintenance a fetch would start. Nothing when `dir` has it.
 */
export async function fetchCommit(dir: string, fromDir: string, oid: string, timeoutMs: number): Promise<void> {
  const has = await runGit(dir, ['cat-file', '-e', '--end-of-options', `${assertOid(oid)}^{commit}`]);
  if (has.code === 0) return;
  const r = await runGit(
    dir,
    ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-maintenance', '--', fromDir, oid],
    { timeoutMs },
  );
  if (r.timedOut) throw new Error(`git fetch of ${oid} timed out after ${timeoutMs} ms`);
  if (r.code !== 0) throw new Error(`git fetch of ${oid} failed: ${r.stderr.trim().slice(0, 300)}`);
}

/** Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor). */
export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  const r = await runGit(dir, ['merge-base', '--is-ancestor', '--end-of-options', assertOid(ancestor), assertOid(descendant)]);
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new Error(`git merge-base --is-ancestor failed: ${r.stderr.trim()}`);
}

export interface MergeTreeOptions {
  /** Write the objects here instead of into the repository (a read-only check). */
  objectDirectory?: string;
  timeoutMs?: number;
}

/**
 * `git merge-tree --write-tree` of two commits: the merged tree, or the conflicted files, or an error (a timeout is an
 * error saying so). With `objectDirectory` the repository itself is only read.
 */
export async function mergeTree(dir: string, ours: string, theirs: string, options: MergeTreeOptions = {}): Promise<MergeTreeOutcome> {
  const env = options.objectDirectory
    ? { GIT_OBJECT_DIRECTORY: options.objectDirectory, GIT_ALTERNATE_OBJECT_DIRECTORIES: join(dir, 'objects') }
    : {};
  const r = await runGit(
    dir,
    ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', '--end-of-options', assertOid(ours), assertOid(theirs)],
    { env, timeoutMs: options.timeoutMs },
  );
  if (r.timedOut) return { kind: 'error', message: `the merge check exceeded its time limit (${options.timeoutMs} ms)` };
  return parseMergeTreeOutput(r.stdout.toString('utf8'), r.code, r.stderr);
}

/**
 * A read-only mergeability check: `merge-tree` with its objects written to a throw-away object directory (the
 * repository's objects are reached as an alternate), removed afterwards.
 */
export async function checkMergeability(dir: string, base: string, head: string, timeoutMs: number): Promise<MergeTreeOutcome> {
  const scratch = await mkdtemp(join(tmpdir(), 'cairn-merge-check-'));
  try {
    return await mergeTree(dir, base, head, { objectDirectory: scratch, timeoutMs });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The tree of a commit. */
export async function treeOf(dir: string, commit: string): Promise<string> {
  return assertOid((await runGitText(dir, ['rev-parse', '--verify', '--end-of-options', `${assertOid(commit)}^{tree}`])).trim());
}

/** A commit's parts that replaying it needs. */
export interface CommitParts {
  tree: string;
  parents: string[];
  author: GitIdentity;
  /** The raw message bytes (kept as git stored them). */
  message: Buffer;
}

/** Parses `git cat-file commit` output. */
export function parseCommitObject(raw: Buffer): CommitParts {
  const split = raw.indexOf('\n\n');
  const header = (split < 0 ? raw : raw.subarray(0, split)).toString('utf8');
  const message = split < 0 ? Buffer.alloc(0) : raw.subarray(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author: GitIdentity = { name: '', email: '' };
  for (const line of header.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5).trim();
    else if (line.startsWith('parent ')) parents.push(line.slice(7).trim());
    else if (line.startsWith('author ')) {
      const m = /^author (.*) <([^>]*)> (\d+) ([+-]\d{4})$/.exec(line);
      if (m) author = { name: m[1], email: m[2], date: `@${m[3]} ${m[4]}` };
    }
  }
  return { tree, parents, author, message };
}

export async function readCommit(dir: string, commit: string): Promise<CommitParts> {
  const r = await runGit(dir, ['cat-file', 'commit', assertOid(commit)]);
  if (r.code !== 0) throw new Error(`git cat-file commit ${commit} failed: ${r.stderr.trim()}`);
  return parseCommitObject(r.stdout);
}

/**
 * Writes a commit object (`git commit-tree`), the message on stdin — the one writer of the commits Cairn creates.
 * Signed with `signing`'s key when given (`-c gpg.format=<fmt> commit-tree -S<key>`; the committer becomes the signer
 * under the committer trust models, {@link signedCommitParts}); `--no-gpg-sign` otherwise, whatever a configuration
 * says.
 */
export async function commitTree(
  dir: string,
  tree: string,
  parents: string[],
  message: string | Buffer,
  author: GitIdentity,
  committer: GitIdentity,
  signing: CommitSigning | null = null,
): Promise<string> {
  const args = signing ? ['-c', `gpg.format=${signing.format}`] : [];
  args.push('commit-tree', assertOid(tree));
  for (const p of parents) args.push('-p', assertOid(p));
  // -S<key> in one argument: git reads a separate word as the next option.
  args.push(signing ? `-S${signing.key}` : '--no-gpg-sign');
  args.push('-F', '-');
  const signed = signedCommitParts(signing, author, committer, message);
  const out = await runGitText(dir, args, {
    input: signed.message,
    env: identityEnv(author, { ...signed.committer, date: committer.date }),
  });
  return assertOid(out.trim());
}

/**
 * Moves a ref from `expectedOld` to `newOid` atomically (`git update-ref <ref> <new> <old>`): false when the ref
 * is no longer at `expectedOld` (a concurrent push won the race, and nothing is lost). `expectedOld` null means
 * "must not exist yet"; `undefined` means "whatever it is" (refs Cairn owns, such as `refs/pull/N/head`).
 */
export async function updateRef(
  dir: string,
  ref: string,
  newOid: string,
  expectedOld?: string | null,
  reason = 'cairn',
): Promise<boolean> {
  const args = ['update-ref', '-m', reason, '--end-of-options', ref, assertOid(newOid)];
  if (expectedOld !== undefined) args.push(expectedOld === null ? zeroIdLike(newOid) : assertOid(expectedOld));
  const r = await runGit(dir, args);
  if (r.code === 0) return true;
  if (/cannot lock ref|but expected|reference already exists|is at/i.test(r.stderr)) return false;
  throw new Error(`git update-ref ${ref} failed: ${r.stderr.trim()}`);
}

/** Deletes a ref if it is still at `expectedOld`; false otherwise. */
export async function deleteRef(dir: string, ref: string, expectedOld: string): Promise<boolean> {
  const r = await runGit(dir, ['update-ref', '-d', '--end-of-options', ref, assertOid(expectedOld)]);
  if (r.code === 0) return true;
  if (/cannot lock ref|but expected|is at/i.test(r.stderr)) return false;
  throw new Error(`git update-ref -d ${ref} failed: ${r.stderr.trim()}`);
}

/** The commits of `head` not in `base`, oldest first, without merge commits (what a rebase replays). */
export async function commitsToReplay(dir: string, base: string, head: string): Promise<string[]> {
  const out = await runGitText(dir, [
    'rev-list', '--reverse', '--topo-order', '--no-merges', '--end-of-options', assertOid(head), `^${assertOid(base)}`,
  ]);
  return out.split('\n').map((s) => s.trim()).filter((s) => isObjectId(s));
}

/** Outcome of replaying commits. */
export type ReplayOutcome = { kind: 'ok'; tip: string } | { kind: 'conflict'; files: string[]; commit: string } | { kind: 'error'; message: string };

/**
 * Replays commits onto `onto` without a worktree (a rebase in plumbing): for each commit C with parent P, a scaffold
 * commit with the current tree and parent P makes P the merge base of a `merge-tree` with C — that three-way merge is
 * exactly a cherry-pick of C. The result is committed with C's author and message and `committer`; commits that
 * become empty are dropped, as `git rebase` does. Scaffolds stay unreachable (garbage for `git gc`).
 */
export async function replayCommits(
  dir: string,
  onto: string,
  commits: string[],
  committer: GitIdentity,
  timeoutMs?: number,
): Promise<ReplayOutcome> {
  let tip = assertOid(onto);
  let tipTree = await treeOf(dir, tip);
  for (const commit of commits) {
    const parts = await readCommit(dir, commit);
    const parent = parts.parents[0];
    if (!parent) return { kind: 'error', message: `cannot replay root commit ${commit}` };
    const scaffold = await commitTree(dir, tipTree, [parent], 'cairn: rebase scaffold\n', committer, committer);
    const merged = await mergeTree(dir, scaffold, commit, { timeoutMs });
    if (merged.kind === 'error') return merged;
    if (merged.kind === 'conflict') return { kind: 'conflict', files: merged.files, commit };
    if (merged.tree === tipTree) continue;
    tip = await commitTree(dir, merged.tree, [tip], parts.message, parts.author, committer);
    tipTree = merged.tree;
  }
  return { kind: 'ok', tip };
}

/** `git diff --numstat -z` between two commits: per file, additions, deletions and names (renames detected). */
export interface NumstatEntry {
  path: string;
  previousPath?: string;
  additions: number;
  deletions: number;
  binary: boolean;
}

export function parseNumstat(raw: string): NumstatEntry[] {
  const tokens = raw.split('\0');
  const out: NumstatEntry[] = [];
  let i = 0;
  while (i < tokens.length) {
    const t = tokens[i];
    if (!t) {
      i += 1;
      continue;
    }
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(t);
    if (!m) {
      i += 1;
      continue;
    }
    const binary = m[1] === '-';
    const additions = binary ? 0 : Number(m[1]);
    const deletions = binary ? 0 : Number(m[2]);
    if (m[3] === '') {
      // A rename or copy: the old and the new path follow as separate fields.
      out.push({ previousPath: tokens[i + 1], path: tokens[i + 2], additions, deletions, binary });
      i += 3;
    } else {
      out.push({ path: m[3], additions, deletions, binary });
      i += 1;
    }
  }
  return out;
}

/** `git diff --name-status -z`: per file its status letter. */
export function parseNameStatus(raw: string): Map<string, string> {
  const tokens = raw.split('\0');
  const out = new Map<string, string>();
  let i = 0;
  while (i < tokens.length) {
    const status = tokens[i];
    if (!status) {
      i += 1;
      continue;
    }
    if (/^[RC]\d*$/.test(status)) {
      out.set(tokens[i + 2], status[0]);
      i += 3;
    } else {
      out.set(tokens[i + 1], status[0]);
      i += 2;
    }
  }
  return out;
}

/** The files changed between two commits, with line counts and statuses. */
export async function diffFiles(dir: string, from: string, to: string): Promise<(NumstatEntry & { status: string })[]> {
  const range = ['--end-of-options', assertOid(from), assertOid(to)];
  // Reads: they stop once the caller's deadline passed.
  const signal = rpcDeadlineSignal();
  const [numstat, names] = await Promise.all([
    runGitText(dir, ['diff', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', ...range], { signal }),
    runGitText(dir, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', ...range], { signal }),
  ]);
  const statuses = parseNameStatus(names);
  return parseNumstat(numstat).map((e) => ({ ...e, status: statuses.get(e.path) ?? 'M' }));
}

/** One commit of a range as the API renders it. */
export interface LoggedCommit {
  sha: string;
  tree: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerName: string;
  committerEmail: string;
  committerDate: string;
  message: string;
}

const LOG_FORMAT = '--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00%x1e';

/** The commits of `head` not in `base`, newest first (`git log base..head`), a page of them and the total. */
export async function logRange(
  dir: string,
  base: string,
  head: string,
  skip: number,
  take: number,
): Promise<{ commits: LoggedCommit[]; total: number }> {
  const range = ['--end-of-options', assertOid(head), `^${assertOid(base)}`];
  const [out, count] = await Promise.all([
    runGitText(dir, ['log', `--skip=${Math.max(0, skip)}`, `--max-count=${Math.max(0, take)}`, LOG_FORMAT, ...range]),
    runGitText(dir, ['rev-list', '--count', ...range]),
  ]);
  const commits: LoggedCommit[] = [];
  for (const record of out.split('\x1e')) {
    const f = record.replace(/^\n/, '').split('\0');
    if (f.length < 10 || !isObjectId(f[0])) continue;
    commits.push({
      sha: f[0],
      tree: f[1],
      parents: f[2] ? f[2].split(' ') : [],
      authorName: f[3],
      authorEmail: f[4],
      authorDate: f[5],
      committerName: f[6],
      committerEmail: f[7],
      committerDate: f[8],
      message: f[9],
    });
  }
  return { commits, total: Number(count.trim()) || 0 };
}

/** Line and file counts of the diff between two commits (one git process). */
export async function diffStats(dir: string, from: string, to: string): Promise<{ additions: number; deletions: number; changedFiles: number }> {
  const out = await runGitText(dir, ['diff', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', '--end-of-options', assertOid(from), assertOid(to)]);
  const entries = parseNumstat(out);
  return {
    additions: entries.reduce((n, e) => n + e.additions, 0),
    deletions: entries.reduce((n, e) => n + e.deletions, 0),
    changedFiles: entries.length,
  };
}
