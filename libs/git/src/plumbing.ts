import { isObjectId, zeroIdLike } from '@cairn/contracts';
import { rpcDeadlineSignal } from '@cairn/platform';
import { commitMessageBytes, parseCommitObject, type CommitPerson } from './commit-object.js';
import type { LoggedCommitFields } from './log-format.js';
import { tagObjectText } from './tag-object.js';
import { signedCommitParts, type CommitSigning } from './commit-signing.js';
import { GitCommandError, runGit, runGitText, type GitRun, type RunGitOptions } from './git-process.js';
import { mergeTree } from './merge-tree.js';
import { assertOid, branchRef } from './refs.js';

/** A git identity; `date` in git's raw form (`@<unix> <±hhmm>`), now when absent. */
export interface GitIdentity {
  name: string;
  email: string;
  date?: string;
}

/** Angle brackets and newlines: git would refuse or mangle them. */
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

export async function resolveBranch(dir: string, branch: string): Promise<string | null> {
  const r = await runGit(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${branchRef(branch)}^{commit}`]);
  if (r.code !== 0) return null;
  const oid = r.stdout.toString('utf8').trim();
  return isObjectId(oid) ? oid : null;
}

export async function mergeBase(dir: string, a: string, b: string, options: { timeoutMs?: number } = {}): Promise<string | null> {
  const r = await runGit(dir, ['merge-base', '--end-of-options', assertOid(a), assertOid(b)], options);
  if (r.code !== 0) return null;
  const oid = r.stdout.toString('utf8').trim();
  return isObjectId(oid) ? oid : null;
}

/** Writes no ref, starts no auto-maintenance. */
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

export async function firstParent(dir: string, commit: string): Promise<string | null> {
  const r = await runGit(dir, ['rev-parse', '--verify', '-q', '--end-of-options', `${assertOid(commit)}^`]);
  const oid = r.stdout.toString('utf8').trim();
  return r.code === 0 && isObjectId(oid) ? oid : null;
}

/** Renames count as delete + add. */
export async function changedPaths(dir: string, from: string, to: string, options: RunGitOptions = {}): Promise<string[]> {
  const out = await runGitText(dir, ['diff', '--name-only', '-z', '--no-renames', assertOid(from), assertOid(to), '--'], options);
  return out.split('\0').filter(Boolean);
}

export async function commitsBetween(dir: string, base: string, head: string): Promise<string[]> {
  const out = await runGitText(dir, ['rev-list', '--end-of-options', assertOid(head), `^${assertOid(base)}`]);
  return out.split('\n').map((s) => s.trim()).filter(isObjectId);
}

/** `refs/heads/…` first, at most `maxBytes` of them. */
export async function branchAndTagRefs(dir: string, maxBytes?: number): Promise<string[]> {
  const out = await runGitText(dir, ['for-each-ref', '--sort=refname', '--format=%(refname)', 'refs/heads/', 'refs/tags/'], {
    maxStdoutBytes: maxBytes,
  });
  return out.split('\n').filter(Boolean);
}

export async function hasBranches(dir: string): Promise<boolean> {
  const out = await runGitText(dir, ['for-each-ref', '--count=1', '--format=%(objectname)', 'refs/heads/']);
  return out.length > 0;
}

/** What receive-pack runs after a push (`maintenance run --auto`); never rejects on an exit code. */
export function runAutoMaintenance(dir: string): Promise<GitRun> {
  return runGit(dir, ['maintenance', 'run', '--auto', '--quiet'], { timeoutMs: 30 * 60_000 });
}

export async function initBareRepository(path: string, initialBranch: string): Promise<void> {
  await runGitText(null, ['init', '--quiet', '--bare', `--initial-branch=${initialBranch}`, '--', path]);
}

export async function fetchBranchesAndTags(dir: string, fromDir: string): Promise<void> {
  await runGitText(dir, ['fetch', '--quiet', '--no-write-fetch-head', '--', fromDir, '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*']);
}

export async function writeFlatTree(dir: string, files: { name: string; blob: string }[]): Promise<string> {
  const entries = files.map((f) => `100644 blob ${assertOid(f.blob)}\t${f.name}\n`).join('');
  return assertOid((await runGitText(dir, ['mktree'], { input: entries })).trim());
}

export async function setHeadBranch(dir: string, branch: string): Promise<void> {
  await runGitText(dir, ['symbolic-ref', 'HEAD', branchRef(branch)]);
}

export interface RefEntry {
  ref: string;
  oid: string;
  type: string;
}

/** The last key is primary, as git's `--sort`. */
export async function listRefs(dir: string, options: { patterns?: string[]; sort?: string[] } = {}): Promise<RefEntry[]> {
  const sort = (options.sort ?? []).map((key) => `--sort=${key}`);
  const out = await runGitText(dir, ['for-each-ref', ...sort, '--format=%(objectname) %(objecttype) %(refname)', ...(options.patterns ?? [])]);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [oid, type] = line.split(' ', 2);
      return { oid, type, ref: line.slice(oid.length + type.length + 2) };
    });
}

export async function refTarget(dir: string, ref: string): Promise<string | null> {
  const r = await runGit(dir, ['rev-parse', '--verify', '--quiet', '--end-of-options', ref]);
  const oid = r.stdout.toString('utf8').trim();
  return r.code === 0 && isObjectId(oid) ? oid : null;
}

export async function writeAnnotatedTag(
  dir: string,
  commit: string,
  name: string,
  tagger: { name: string; email: string },
  message: string,
): Promise<string> {
  return assertOid((await runGitText(dir, ['mktag'], { input: tagObjectText(assertOid(commit), 'commit', name, tagger, message) })).trim());
}

export interface ListedTreeEntry {
  path: string;
  mode: string;
  type: string;
  oid: string;
  size: number | null;
}

export async function listTree(dir: string, tree: string, recursive: boolean): Promise<ListedTreeEntry[]> {
  const args = ['ls-tree', '-z', '-l', ...(recursive ? ['-r', '-t'] : []), '--end-of-options', assertOid(tree)];
  return (await runGitText(dir, args))
    .split('\0')
    .filter(Boolean)
    .map((rec) => {
      const tab = rec.indexOf('\t');
      const [mode, type, oid, size] = rec.slice(0, tab).split(/ +/);
      return { path: rec.slice(tab + 1), mode, type, oid, size: size === '-' ? null : Number(size) };
    });
}

/** Oldest first; for a new ref (`old` null), only commits no ref has yet. `options.env` reaches quarantined objects. */
export async function commitsAdded(dir: string, old: string | null, next: string, max: number, options: RunGitOptions = {}): Promise<string[]> {
  const range = old === null ? [assertOid(next), '--not', '--all'] : [`${assertOid(old)}..${assertOid(next)}`];
  const list = await runGitText(dir, ['rev-list', '--reverse', `--max-count=${max}`, ...range, '--'], options);
  return list.split('\n').filter(Boolean);
}

/** `tooLarge` rather than a cut patch: a half hunk would render as a wrong diff. */
export async function commitPatch(
  dir: string,
  sha: string,
  from: string | null,
  limits: { maxBytes: number; timeoutMs: number },
): Promise<{ patch: string; tooLarge: boolean }> {
  const common = ['--no-color', '--no-ext-diff', '--no-textconv', '-M', '--full-index', '--no-commit-id'];
  const args = from === null
    ? ['diff-tree', '-p', '--root', '--first-parent', ...common, assertOid(sha)]
    : ['diff-tree', '-p', ...common, assertOid(from), assertOid(sha)];
  try {
    const run = await runGit(dir, args, { maxStdoutBytes: limits.maxBytes, timeoutMs: limits.timeoutMs });
    if (run.timedOut) return { patch: '', tooLarge: true };
    if (run.code !== 0) throw new GitCommandError('diff-tree', run.code, run.stderr);
    return { patch: run.stdout.toString('utf8'), tooLarge: false };
  } catch (err) {
    if (err instanceof GitCommandError && err.code === null && err.stderr.startsWith('output larger than')) {
      return { patch: '', tooLarge: true };
    }
    throw err;
  }
}

export async function gitConfigValue(source: { repo: string } | { file: string }, name: string, bool = false): Promise<string | undefined> {
  const get = [...(bool ? ['--type=bool'] : []), '--get', name];
  const run = 'repo' in source
    ? await runGit(source.repo, ['config', '--local', ...get], { timeoutMs: 10_000 })
    : await runGit(null, ['config', '--file', source.file, ...get], { timeoutMs: 10_000 });
  return run.code === 0 ? run.stdout.toString('utf8').trim() : undefined;
}

/** A commit is its own ancestor. */
export async function isAncestor(dir: string, ancestor: string, descendant: string, options: RunGitOptions = {}): Promise<boolean> {
  const r = await runGit(dir, ['merge-base', '--is-ancestor', '--end-of-options', assertOid(ancestor), assertOid(descendant)], options);
  if (r.code === 0) return true;
  if (r.code === 1) return false;
  throw new Error(`git merge-base --is-ancestor failed: ${r.stderr.trim()}`);
}

export async function treeOf(dir: string, commit: string): Promise<string> {
  return assertOid((await runGitText(dir, ['rev-parse', '--verify', '--end-of-options', `${assertOid(commit)}^{tree}`])).trim());
}

/** Kept as git takes it back (`GIT_AUTHOR_DATE=@<unix> <±hhmm>`) so a replayed commit keeps its date. */
export function gitIdentity(person: CommitPerson): GitIdentity {
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(person.date);
  const tz = offset ? `${offset[1]}${offset[2]}${offset[3]}` : '+0000';
  return { name: person.name, email: person.email, date: `@${Date.parse(person.date) / 1000} ${tz}` };
}

export async function readRawCommit(dir: string, commit: string, options: RunGitOptions = {}): Promise<Buffer | null> {
  const r = await runGit(dir, ['cat-file', 'commit', assertOid(commit)], options);
  return r.code === 0 ? r.stdout : null;
}

/** The one writer of Cairn's commits. `--no-gpg-sign` unless `signing` is given, whatever a configuration says. */
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

/** False when a concurrent push moved the ref (nothing is lost). `expectedOld` null: must not exist; undefined: any. */
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

export async function deleteRef(dir: string, ref: string, expectedOld: string): Promise<boolean> {
  const r = await runGit(dir, ['update-ref', '-d', '--end-of-options', ref, assertOid(expectedOld)]);
  if (r.code === 0) return true;
  if (/cannot lock ref|but expected|is at/i.test(r.stderr)) return false;
  throw new Error(`git update-ref -d ${ref} failed: ${r.stderr.trim()}`);
}

/** Without merge commits: what a rebase replays. */
export async function commitsToReplay(dir: string, base: string, head: string): Promise<string[]> {
  const out = await runGitText(dir, [
    'rev-list', '--reverse', '--topo-order', '--no-merges', '--end-of-options', assertOid(head), `^${assertOid(base)}`,
  ]);
  return out.split('\n').map((s) => s.trim()).filter((s) => isObjectId(s));
}

export type ReplayOutcome = { kind: 'ok'; tip: string } | { kind: 'conflict'; files: string[]; commit: string } | { kind: 'error'; message: string };

/** A scaffold commit (current tree, parent P) makes P the merge base, so `merge-tree` with C cherry-picks C. */
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
    const raw = await readRawCommit(dir, commit);
    if (!raw) throw new Error(`git cat-file commit ${commit} failed`);
    const parts = parseCommitObject(raw);
    const parent = parts.parents[0];
    if (!parent) return { kind: 'error', message: `cannot replay root commit ${commit}` };
    const scaffold = await commitTree(dir, tipTree, [parent], 'cairn: rebase scaffold\n', committer, committer);
    const merged = await mergeTree(dir, scaffold, commit, { timeoutMs });
    if (merged.kind === 'error') return merged;
    if (merged.kind === 'conflict') return { kind: 'conflict', files: merged.files, commit };
    if (merged.tree === tipTree) continue;
    tip = await commitTree(dir, merged.tree, [tip], commitMessageBytes(raw), gitIdentity(parts.author), committer);
    tipTree = merged.tree;
  }
  return { kind: 'ok', tip };
}

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

export async function diffFiles(dir: string, from: string, to: string): Promise<(NumstatEntry & { status: string })[]> {
  const range = ['--end-of-options', assertOid(from), assertOid(to)];
  const signal = rpcDeadlineSignal();
  const [numstat, names] = await Promise.all([
    runGitText(dir, ['diff', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', ...range], { signal }),
    runGitText(dir, ['diff', '--name-status', '-z', '-M', '--no-ext-diff', ...range], { signal }),
  ]);
  const statuses = parseNameStatus(names);
  return parseNumstat(numstat).map((e) => ({ ...e, status: statuses.get(e.path) ?? 'M' }));
}

export interface LoggedCommit extends LoggedCommitFields {
  sha: string;
  tree: string;
  parents: string[];
}

const LOG_FORMAT = '--format=%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x00%x1e';

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
  return { commits: parseLoggedCommits(out), total: Number(count.trim()) || 0 };
}

export async function loggedCommit(dir: string, sha: string): Promise<LoggedCommit> {
  const [commit] = parseLoggedCommits(await runGitText(dir, ['log', '-1', LOG_FORMAT, '--end-of-options', assertOid(sha)]));
  if (!commit) throw new Error(`git log -1 ${sha}: no commit`);
  return commit;
}

function parseLoggedCommits(out: string): LoggedCommit[] {
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
  return commits;
}

export async function diffStats(dir: string, from: string, to: string): Promise<{ additions: number; deletions: number; changedFiles: number }> {
  const out = await runGitText(dir, ['diff', '--numstat', '-z', '-M', '--no-ext-diff', '--no-textconv', '--end-of-options', assertOid(from), assertOid(to)]);
  const entries = parseNumstat(out);
  return {
    additions: entries.reduce((n, e) => n + e.additions, 0),
    deletions: entries.reduce((n, e) => n + e.deletions, 0),
    changedFiles: entries.length,
  };
}
