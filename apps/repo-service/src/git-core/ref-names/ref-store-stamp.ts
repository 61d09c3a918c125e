import { opendir, stat } from 'node:fs/promises';
import path from 'node:path';

/** The ref folders whose names the ref switcher lists. */
const NAME_FOLDERS = ['refs/heads', 'refs/tags'];
/** Changes this close to now may share a timestamp with the next one (coarse clocks): such a stamp is not trusted. */
export const RACY_STAMP_MS = 2_000;

// git adds or removes a loose ref by renaming or unlinking in its folder (new folder mtime) and replaces
// `packed-refs` (new inode): their stats change with every name, no git process needed. A stamp within
// {@link RACY_STAMP_MS} of now is null: a second change in the same clock tick would leave it equal.
export async function refStoreStamp(repoPath: string, now = Date.now()): Promise<string | null> {
  const parts: string[] = [];
  let newest = 0n;
  const note = async (file: string): Promise<boolean> => {
    const s = await stat(file, { bigint: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    parts.push(s ? `${file}\0${s.ino}\0${s.size}\0${s.mtimeNs}\0${s.ctimeNs}` : `${file}\0-`);
    if (s && s.mtimeNs > newest) newest = s.mtimeNs;
    if (s && s.ctimeNs > newest) newest = s.ctimeNs;
    return s?.isDirectory() ?? false;
  };
  const walk = async (folder: string): Promise<void> => {
    if (!(await note(folder))) return;
    for await (const entry of await opendir(folder)) {
      if (entry.isDirectory()) await walk(path.join(folder, entry.name));
    }
  };
  await note(path.join(repoPath, 'packed-refs'));
  for (const folder of NAME_FOLDERS) await walk(path.join(repoPath, folder));
  if (newest / 1_000_000n >= BigInt(now - RACY_STAMP_MS)) return null;
  return parts.join('\n');
}
