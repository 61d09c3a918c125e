/** Gitea's content types. */
export type TreeEntryKind = 'file' | 'dir' | 'symlink' | 'submodule';

export interface TreeEntry {
  mode: string;
  name: string;
  oid: string;
  kind: TreeEntryKind;
}

export function kindOfMode(mode: string): TreeEntryKind | null {
  switch (mode) {
    case '100644':
    case '100755':
    case '100664':
      return 'file';
    case '40000':
    case '040000':
      return 'dir';
    case '120000':
      return 'symlink';
    case '160000':
      return 'submodule';
    default:
      return null;
  }
}

/** `hashBytes`: 20 for SHA-1 repositories, 32 for SHA-256. Throws on a malformed tree. */
export function parseTree(data: Buffer, hashBytes: 20 | 32): TreeEntry[] {
  const out: TreeEntry[] = [];
  let pos = 0;
  while (pos < data.length) {
    const sp = data.indexOf(0x20, pos);
    if (sp < 0) throw new Error('malformed tree: no space after mode');
    const nul = data.indexOf(0x00, sp + 1);
    if (nul < 0 || nul + 1 + hashBytes > data.length) throw new Error('malformed tree: truncated entry');
    const mode = data.toString('latin1', pos, sp);
    const name = data.toString('utf8', sp + 1, nul);
    const oid = data.toString('hex', nul + 1, nul + 1 + hashBytes);
    pos = nul + 1 + hashBytes;
    const kind = kindOfMode(mode);
    if (kind) out.push({ mode, name, oid, kind });
  }
  return out;
}

export function hashBytesOf(hexId: string): 20 | 32 {
  return hexId.length === 64 ? 32 : 20;
}

/** Tolerant: unknown keys, comments and quoting are ignored. */
export function parseGitmodules(text: string): Map<string, string> {
  const sections = new Map<string, { path?: string; url?: string }>();
  let current: { path?: string; url?: string } | null = null;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const head = /^\[\s*submodule\s+"((?:[^"\\]|\\.)*)"\s*\]$/.exec(line);
    if (head) {
      current = sections.get(head[1]) ?? {};
      sections.set(head[1], current);
      continue;
    }
    if (line.startsWith('[')) {
      current = null;
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!kv || !current) continue;
    let value = kv[2].trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    const key = kv[1].toLowerCase();
    if (key === 'path') current.path = value;
    if (key === 'url') current.url = value;
  }
  const byPath = new Map<string, string>();
  for (const s of sections.values()) if (s.path && s.url) byPath.set(s.path, s.url);
  return byPath;
}
