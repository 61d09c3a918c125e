import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVER_OWNED_REF_PREFIXES, isFullRefName, isObjectId, isZeroId } from '@cairn/contracts';

/** One ref update as git applied it: `<old> <new> <ref>`. */
export interface RefUpdateLine {
  ref: string;
  old: string;
  new: string;
  /** Half of a branch rename (the API's, never a push): announced as a created or deleted ref, without commits. */
  renamed?: true;
}

/** The environment variable naming the journal directory of one receive-pack run (see `push-journal.ts`). */
export const PUSH_JOURNAL_ENV = 'CAIRN_PUSH_JOURNAL';

/** The file inside a journal directory the `reference-transaction` hook appends to. */
export const JOURNAL_REFS_FILE = 'refs';

/**
 * The `reference-transaction` hook. git runs it for every ref transaction of the receive-pack — with state
 * `prepared` while it holds the ref's lock and before anything changes on disk (a non-zero exit aborts the update),
 * then `committed` or `aborted` — and writes the updates on stdin. The hook appends each as
 * `<receive-pack pid> <state> <old> <new> <ref>` to the push's journal, so the journal holds every ref update
 * before git makes it, and what became of it, whatever happens to repo-service meanwhile. When the journal is gone
 * (a replay claimed it: see `PushJournals`) a `prepared` update is refused, so no ref can move unrecorded.
 * Input only ever reaches `printf` as an argument; nothing is evaluated.
 */
export const REFERENCE_TRANSACTION_HOOK = `#!/bin/sh
# Written by Cairn repo-service: journals every ref update of a push (see PUSH_JOURNAL in the docs).
j="$${PUSH_JOURNAL_ENV}"
[ -n "$j" ] || exit 0
case "$1" in
prepared|committed|aborted) ;;
*) exit 0 ;;
esac
if [ ! -d "$j" ]; then
  [ "$1" = prepared ] || exit 0
  echo "Cairn: this push can no longer be recorded (the server restarted); please push again" >&2
  exit 1
fi
while read -r old new ref; do
  printf '%s %s %s %s %s\\n' "$PPID" "$1" "$old" "$new" "$ref"
done >> "$j/${JOURNAL_REFS_FILE}" || exit 1
`;

/** `case` patterns of the server-owned namespaces; the prefixes are checked so that nothing odd reaches the script. */
function serverOwnedPatterns(): string {
  return SERVER_OWNED_REF_PREFIXES.map((prefix) => {
    if (!/^refs\/[a-z][a-z0-9-]*\/$/.test(prefix)) throw new Error(`unexpected server-owned ref prefix ${prefix}`);
    return `${prefix}*`;
  }).join('|');
}

/** The environment variables that connect a receive-pack's `pre-receive` hook to repo-service's checks. */
export const PRE_RECEIVE_ENV = {
  /** The checks' address (`http://127.0.0.1:<port>/`: see `PreReceiveChecks`). */
  url: 'CAIRN_PRE_RECEIVE_URL',
  /** This push's one-time key: names the push (repository, pusher) to the checks. */
  key: 'CAIRN_PRE_RECEIVE_KEY',
  /** The Node.js binary that runs the check script. */
  node: 'CAIRN_NODE',
} as const;

/** The script beside the hooks that sends a push's updates to repo-service's checks. */
export const PRE_RECEIVE_CHECK_SCRIPT_NAME = 'pre-receive-check.cjs';

/**
 * The `pre-receive` hook: refuses the whole push when it touches a ref the server owns (`SERVER_OWNED_REF_PREFIXES`:
 * pull-request refs and the like), as Gitea does; then, when repo-service checks this push (branch protection), hands
 * the updates to the check script. What it prints reaches the client as `remote: …` lines; git then reports every
 * ref of the push as `[remote rejected] (pre-receive hook declined)`. repo-service's own ref updates (pull-request
 * heads) use `git update-ref` without these hooks.
 */
export const PRE_RECEIVE_HOOK = `#!/bin/sh
# Written by Cairn repo-service: refuses pushes to refs the server owns, then asks repo-service about the rest.
refused=0
lines=
while read -r old new ref; do
  case "$ref" in
  ${serverOwnedPatterns()})
    printf 'Cairn: %s is managed by the server and cannot be pushed to; push branches (refs/heads/) and tags (refs/tags/)\\n' "$ref" >&2
    refused=1 ;;
  esac
  lines="$lines$old $new $ref
"
done
[ $refused = 0 ] || exit 1
[ -n "$${PRE_RECEIVE_ENV.key}" ] || exit 0
printf '%s' "$lines" | "$${PRE_RECEIVE_ENV.node}" "\${0%/*}/${PRE_RECEIVE_CHECK_SCRIPT_NAME}"
`;

/**
 * The check script (CommonJS, run by the hook with repo-service's own Node.js): posts the push's key, updates and
 * quarantine directories to repo-service's checks and prints what they answer; any failure refuses the push.
 */
export const PRE_RECEIVE_CHECK_SCRIPT = `'use strict';
// Written by Cairn repo-service: asks repo-service whether a push may update its refs (branch protection).
const http = require('node:http');
const env = process.env;
const refuse = (message) => { process.stderr.write('Cairn: ' + message + '\\n'); process.exit(1); };
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const updates = input.split('\\n').filter(Boolean).map((line) => {
    const [old, next, ref] = line.split(' ');
    return { old, new: next, ref };
  });
  const body = JSON.stringify({
    key: env.${PRE_RECEIVE_ENV.key},
    updates,
    objectDirectory: env.GIT_OBJECT_DIRECTORY || null,
    alternateObjectDirectories: env.GIT_ALTERNATE_OBJECT_DIRECTORIES || null,
    quarantinePath: env.GIT_QUARANTINE_PATH || null,
  });
  const req = http.request(env.${PRE_RECEIVE_ENV.url}, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (d) => { text += d; });
    res.on('end', () => {
      let reply;
      try { reply = JSON.parse(text); } catch { return refuse('this push could not be checked; please try again'); }
      for (const m of reply.messages || []) process.stderr.write('Cairn: ' + m + '\\n');
      process.exit(res.statusCode === 200 && reply.ok === true ? 0 : 1);
    });
  });
  req.setTimeout(120000, () => req.destroy(new Error('timeout')));
  req.on('error', () => refuse('this push could not be checked; please try again'));
  req.end(body);
});
`;

/** What became of one ref update in a journal. */
export type JournalState = 'prepared' | 'committed' | 'aborted';

/** One line the `reference-transaction` hook wrote. */
export interface JournalRecord extends RefUpdateLine {
  /** The git process that ran the transaction (receive-pack, or a maintenance process it started). */
  pid: number;
  state: JournalState;
}

const STATES: ReadonlySet<string> = new Set<JournalState>(['prepared', 'committed', 'aborted']);

/**
 * Parses a journal: one `<pid> <state> <old> <new> <ref>` per line. An unterminated last line is a write cut short
 * by a crash (its update was never acknowledged to git) and is dropped; other malformed lines are reported, never
 * guessed at.
 */
export function parseJournal(text: string): { records: JournalRecord[]; invalid: string[] } {
  const records: JournalRecord[] = [];
  const invalid: string[] = [];
  const lines = text.split('\n');
  lines.pop(); // '' after the last newline, or a torn last line
  for (const line of lines) {
    if (line === '') continue;
    const parts = line.split(' ');
    // A push to the branch HEAD points at reports HEAD too: the same update seen through the symbolic ref.
    if (parts.length === 5 && parts[4] === 'HEAD') continue;
    const [pid, state, oldOid, newOid, ref] = parts;
    if (
      parts.length !== 5 || !/^[1-9]\d{0,9}$/.test(pid) || !STATES.has(state) || !isObjectId(oldOid) ||
      !isObjectId(newOid) || oldOid.length !== newOid.length || !isFullRefName(ref)
    ) {
      invalid.push(line);
      continue;
    }
    records.push({ pid: Number(pid), state: state as JournalState, ref, old: oldOid, new: newOid });
  }
  return { records, invalid };
}

/** A journal's verdict: the updates git committed, in order, and those it prepared but never finished. */
export interface JournalOutcome {
  committed: RefUpdateLine[];
  /** Prepared, then neither committed nor aborted (git died in between): to be checked against the repository. */
  unsettled: RefUpdateLine[];
}

/**
 * What a journal says receive-pack did. Only records of receive-pack itself count (`pid`; when unknown, the first
 * record's process: receive-pack updates its refs before it starts any maintenance): the `git maintenance`/`gc` it
 * may start afterwards inherits the hook, and its `pack-refs` reports every packed ref as created. Records with two
 * zero ids are git's internal packed-refs step of a deletion, not an update.
 */
export function journalOutcome(records: JournalRecord[], pid: number | null): JournalOutcome {
  const owner = pid ?? records[0]?.pid;
  const byRef = new Map<string, { line: RefUpdateLine; state: JournalState }>();
  for (const r of records) {
    if (r.pid !== owner || (isZeroId(r.old) && isZeroId(r.new))) continue;
    const seen = byRef.get(r.ref);
    if (!seen) byRef.set(r.ref, { line: { ref: r.ref, old: r.old, new: r.new }, state: r.state });
    else if (r.state !== 'prepared') seen.state = r.state;
  }
  const entries = [...byRef.values()];
  return {
    committed: entries.filter((e) => e.state === 'committed').map((e) => e.line),
    unsettled: entries.filter((e) => e.state === 'prepared').map((e) => e.line),
  };
}

/**
 * Writes the hooks directory receive-pack runs with (`-c core.hooksPath=<dir>`), so the repositories' own `hooks/`
 * folders are never used. Each write is atomic (temp file + rename): replicas sharing the volume can do it together.
 * (A `post-receive` left by an older version is harmless: it does nothing without its environment variable.)
 */
export async function installHooks(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o755 });
  for (const [name, script] of [
    ['reference-transaction', REFERENCE_TRANSACTION_HOOK],
    ['pre-receive', PRE_RECEIVE_HOOK],
    [PRE_RECEIVE_CHECK_SCRIPT_NAME, PRE_RECEIVE_CHECK_SCRIPT],
  ] as const) {
    const target = join(dir, name);
    const current = await readFile(target, 'utf8').catch(() => null);
    if (current === script) {
      await chmod(target, 0o755);
      continue;
    }
    const tmp = join(dir, `.${name}.${randomUUID()}`);
    await writeFile(tmp, script, { mode: 0o755 });
    await chmod(tmp, 0o755);
    await rename(tmp, target);
  }
}
