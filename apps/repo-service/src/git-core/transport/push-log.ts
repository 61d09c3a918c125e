import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVER_OWNED_REF_PREFIXES, isFullRefName, isObjectId, isZeroId } from '@cairn/contracts';

export interface RefUpdateLine {
  ref: string;
  old: string;
  new: string;
  /** Half of an API branch rename (never a push): a created or deleted ref, without commits. */
  renamed?: true;
}

export const PUSH_JOURNAL_ENV = 'CAIRN_PUSH_JOURNAL';

export const JOURNAL_REFS_FILE = 'refs';

// Journals each update while git holds the ref lock, before disk changes: no ref moves unrecorded; a claimed journal
// refuses `prepared`. Input reaches `printf` only as an argument.
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

/** Prefixes are checked so nothing odd reaches the script. */
function serverOwnedPatterns(): string {
  return SERVER_OWNED_REF_PREFIXES.map((prefix) => {
    if (!/^refs\/[a-z][a-z0-9-]*\/$/.test(prefix)) throw new Error(`unexpected server-owned ref prefix ${prefix}`);
    return `${prefix}*`;
  }).join('|');
}

export const PRE_RECEIVE_ENV = {
  url: 'CAIRN_PRE_RECEIVE_URL',
  /** Names the push (repository, pusher) to the checks. */
  key: 'CAIRN_PRE_RECEIVE_KEY',
  node: 'CAIRN_NODE',
} as const;

export const PRE_RECEIVE_CHECK_SCRIPT_NAME = 'pre-receive-check.cjs';

/** Refuses server-owned refs (as Gitea), then hands updates to the check script; its output reaches the client. */
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

/** CommonJS, run with repo-service's own Node.js; any failure refuses the push. */
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

export type JournalState = 'prepared' | 'committed' | 'aborted';

export interface JournalRecord extends RefUpdateLine {
  /** Receive-pack, or a maintenance process it started. */
  pid: number;
  state: JournalState;
}

const STATES: ReadonlySet<string> = new Set<JournalState>(['prepared', 'committed', 'aborted']);

/** An unterminated last line is a crash-cut write (never acknowledged), dropped; other bad lines are reported. */
export function parseJournal(text: string): { records: JournalRecord[]; invalid: string[] } {
  const records: JournalRecord[] = [];
  const invalid: string[] = [];
  const lines = text.split('\n');
  lines.pop(); // '' after the last newline, or a torn last line
  for (const line of lines) {
    if (line === '') continue;
    const parts = line.split(' ');
    // A push to HEAD's branch reports HEAD too: the same update through the symbolic ref.
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

export interface JournalOutcome {
  committed: RefUpdateLine[];
  /** Git died between prepare and commit: to be checked against the repository. */
  unsettled: RefUpdateLine[];
}

/** Only receive-pack's own records count: maintenance it starts inherits the hook and reports every ref as created. */
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

/** Via `-c core.hooksPath`, so repositories' own hooks are never used; atomic writes for replicas on one volume. */
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
