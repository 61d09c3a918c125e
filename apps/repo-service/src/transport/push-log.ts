import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isFullRefName, isObjectId } from '@cairn/contracts';

/** One ref update exactly as git's `post-receive` hook reports it. */
export interface RefUpdateLine {
  ref: string;
  old: string;
  new: string;
}

/** The environment variable naming the file the hook writes for one receive-pack run. */
export const PUSH_LOG_ENV = 'CAIRN_PUSH_LOG';

/**
 * The `post-receive` hook: it copies its stdin — the `<old> <new> <ref>` lines of the refs this receive-pack
 * actually updated — into the file named by `$CAIRN_PUSH_LOG`, which is unique to one receive-pack process. Nothing
 * else happens inside git; repo-service reads the file after receive-pack exits, so concurrent pushes never mix.
 */
export const POST_RECEIVE_HOOK = `#!/bin/sh
# Written by Cairn repo-service: records this push's ref updates for the push event.
[ -n "$${PUSH_LOG_ENV}" ] || exit 0
exec cat > "$${PUSH_LOG_ENV}"
`;


/**
 * Parses the hook's stdin: one `<old-oid> <new-oid> <refname>` per line. Malformed lines are reported, never
 * guessed at.
 */
export function parsePushLog(text: string): { updates: RefUpdateLine[]; invalid: string[] } {
  const updates: RefUpdateLine[] = [];
  const invalid: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const parts = line.split(' ');
    if (parts.length !== 3) {
      invalid.push(line);
      continue;
    }
    const [oldOid, newOid, ref] = parts;
    if (!isObjectId(oldOid) || !isObjectId(newOid) || oldOid.length !== newOid.length || !isFullRefName(ref)) {
      invalid.push(line);
      continue;
    }
    updates.push({ ref, old: oldOid, new: newOid });
  }
  return { updates, invalid };
}

/**
 * Writes the hooks directory receive-pack runs with (`-c core.hooksPath=<dir>`), so the repositories' own `hooks/`
 * folders are never used. The write is atomic (temp file + rename): replicas sharing the volume can do it together.
 */
export async function installHooks(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const target = join(dir, 'post-receive');
  const current = await readFile(target, 'utf8').catch(() => null);
  if (current === POST_RECEIVE_HOOK) {
    await chmod(target, 0o755);
    return;
  }
  const tmp = join(dir, `.post-receive.${randomUUID()}`);
  await writeFile(tmp, POST_RECEIVE_HOOK, { mode: 0o755 });
  await chmod(tmp, 0o755);
  await rename(tmp, target);
}
