/** One line of a hunk, with its line numbers on either side (null where the line does not exist). */
export interface DiffLine {
  kind: 'add' | 'del' | 'context' | 'note';
  oldNo: number | null;
  newNo: number | null;
  text: string;
}

export interface DiffHunk {
  header: string;
  /** The header's ranges (`@@ -oldStart,oldCount +newStart,newCount @@`; a count of 0 starts after the line named). */
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  lines: DiffLine[];
}

export interface DiffFile {
  oldPath: string;
  newPath: string;
  status: 'added' | 'deleted' | 'modified' | 'renamed';
  binary: boolean;
  /** File modes when they change (`100644` → `100755`), or of an added/deleted file; null when not said. */
  oldMode: string | null;
  newMode: string | null;
  /** The blob ids of the `index` line (full ids with `--full-index`); null when the patch has none (a pure rename). */
  blobs: string | null;
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

/** Paths come from `---`/`+++` and rename headers, which git C-quotes for unusual names (both forms handled). */
export function parseUnifiedDiff(patch: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let hunk: DiffHunk | null = null;
  let oldNo = 0;
  let newNo = 0;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      const [a, b] = headerPaths(line.slice('diff --git '.length));
      file = { oldPath: a, newPath: b, status: 'modified', binary: false, oldMode: null, newMode: null, blobs: null, additions: 0, deletions: 0, hunks: [] };
      hunk = null;
      files.push(file);
      continue;
    }
    if (!file) continue;
    const m = HUNK.exec(line);
    if (m) {
      oldNo = Number(m[1]);
      newNo = Number(m[3]);
      hunk = { header: line, oldStart: oldNo, oldCount: Number(m[2] ?? 1), newStart: newNo, newCount: Number(m[4] ?? 1), lines: [] };
      file.hunks.push(hunk);
      continue;
    }
    if (!hunk) {
      readFileHeader(file, line);
      continue;
    }
    if (line.startsWith('+')) {
      hunk.lines.push({ kind: 'add', oldNo: null, newNo: newNo++, text: line.slice(1) });
      file.additions++;
    } else if (line.startsWith('-')) {
      hunk.lines.push({ kind: 'del', oldNo: oldNo++, newNo: null, text: line.slice(1) });
      file.deletions++;
    } else if (line.startsWith(' ')) {
      hunk.lines.push({ kind: 'context', oldNo: oldNo++, newNo: newNo++, text: line.slice(1) });
    } else if (line.startsWith('\\')) {
      hunk.lines.push({ kind: 'note', oldNo: null, newNo: null, text: line.slice(2) });
    }
  }
  return files;
}

function readFileHeader(file: DiffFile, line: string): void {
  if (line.startsWith('new file mode ')) {
    file.status = 'added';
    file.newMode = line.slice('new file mode '.length);
  } else if (line.startsWith('deleted file mode ')) {
    file.status = 'deleted';
    file.oldMode = line.slice('deleted file mode '.length);
  } else if (line.startsWith('old mode ')) file.oldMode = line.slice('old mode '.length);
  else if (line.startsWith('new mode ')) file.newMode = line.slice('new mode '.length);
  else if (line.startsWith('index ')) file.blobs = line.slice('index '.length).split(' ')[0];
  else if (line.startsWith('rename from ')) {
    file.status = 'renamed';
    file.oldPath = unquote(line.slice('rename from '.length));
  } else if (line.startsWith('rename to ')) file.newPath = unquote(line.slice('rename to '.length));
  else if (line.startsWith('Binary files ') || line === 'GIT binary patch') file.binary = true;
  else if (line.startsWith('--- ') && line !== '--- /dev/null') file.oldPath = stripPrefix(unquote(line.slice(4)), 'a/');
  else if (line.startsWith('+++ ') && line !== '+++ /dev/null') file.newPath = stripPrefix(unquote(line.slice(4)), 'b/');
}

/** `a/x b/y` (or quoted forms) from a `diff --git` line; for unquoted names with spaces the halves are equal. */
function headerPaths(rest: string): [string, string] {
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    const a = unquote(rest.slice(0, end + 1));
    const b = unquote(rest.slice(end + 2));
    return [stripPrefix(a, 'a/'), stripPrefix(b, 'b/')];
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === ' ') {
    return [stripPrefix(rest.slice(0, half), 'a/'), stripPrefix(rest.slice(half + 1), 'b/')];
  }
  const sp = rest.indexOf(' b/');
  return [stripPrefix(rest.slice(0, sp), 'a/'), stripPrefix(unquote(rest.slice(sp + 1)), 'b/')];
}

function closingQuote(s: string): number {
  for (let i = 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return s.length - 1;
}

const ESCAPES: Readonly<Record<string, number>> = { n: 10, t: 9, r: 13, '"': 34, '\\': 92, a: 7, b: 8, f: 12, v: 11 };

/** Git's C-style quoting (`"caf\303\251.txt"`): octal escapes are UTF-8 bytes. */
function unquote(s: string): string {
  if (!s.startsWith('"') || !s.endsWith('"') || s.length < 2) return s;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[++i] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(i));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 2;
    } else bytes.push(ESCAPES[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

function stripPrefix(s: string, prefix: string): string {
  return s.startsWith(prefix) ? s.slice(prefix.length) : s;
}
