import { createHash } from 'node:crypto';
import { LruCache } from '@cairn/platform';
import { escapeHtml, HIGHLIGHT_MAX_BYTES, highlightAs, highlightLines, highlightSpans, languageFor } from './highlight.js';
import type { DiffFile, DiffHunk } from './unified-diff.js';

/** Gitea's `?style=`: one column of lines, or the old and new side by side. */
export type DiffStyle = 'unified' | 'split';
/** Gitea's review-comment sides: the old (`previous`) or new (`proposed`) version of a line. */
export type DiffSide = 'previous' | 'proposed';

export const DIFF_STYLES: readonly DiffStyle[] = ['unified', 'split'];
/** A file with more changed lines than this starts collapsed (its `<details>` closed). */
export const DIFF_COLLAPSE_LINES = 400;

export interface LineComment {
  id: number;
  author: string;
  html: string;
  at: string;
  /** Part of the viewer's review that is not submitted yet. */
  pending: boolean;
  /** Made on an earlier head commit: the line it names may have moved. */
  outdated: boolean;
}

export interface DiffLinks {
  style: DiffStyle;
  /** The file view of a path at the diff's head commit: the expand-context link without JS (`#L{n}` appended). */
  headBlobUrl?: (path: string) => string;
  /** The fragment with hidden lines `from`..`to` (0: to the end) that the page script puts in place. */
  excerptUrl?: (path: string, from: number, to: number, shift: number) => string;
  /** A line's comment form; absent when the visitor may not comment. */
  commentUrl?: (path: string, side: DiffSide, line: number) => string;
  /** Review comments by {@link lineKey}; outdated ones by path under `outdated`. */
  comments?: ReadonlyMap<string, LineComment[]>;
  outdated?: ReadonlyMap<string, LineComment[]>;
}

export interface DiffCell {
  kind: 'add' | 'del' | 'context' | 'empty';
  no: number | null;
  html: string;
  anchor: string | null;
  commentUrl: string | null;
}

export type DiffRow =
  | { type: 'hunk'; header: string }
  | { type: 'expand'; text: string; href: string | null; excerpt: string | null }
  /** Unified: one line (`cell` is the side it belongs to; context lines are the new side). */
  | { type: 'line'; kind: DiffCell['kind'] | 'note'; oldNo: number | null; newNo: number | null; cell: DiffCell }
  | { type: 'pair'; left: DiffCell; right: DiffCell }
  | { type: 'comments'; comments: LineComment[] };

export interface DiffFileView {
  id: string;
  name: string;
  oldName: string | null;
  status: DiffFile['status'];
  mode: string | null;
  binary: boolean;
  additions: number;
  deletions: number;
  collapsed: boolean;
  rows: DiffRow[];
  outdated: LineComment[];
}

export interface DiffView {
  style: DiffStyle;
  files: DiffFileView[];
  additions: number;
  deletions: number;
}

export function lineKey(path: string, side: DiffSide, line: number): string {
  return `${path}\0${side}\0${line}`;
}

/** The fragment id of a file's section (stable across pages: the commit, compare and files pages link to it). */
export function fileAnchor(path: string): string {
  return `diff-${createHash('sha1').update(path).digest('hex').slice(0, 12)}`;
}

export function lineAnchor(fileId: string, side: DiffSide, line: number): string {
  return `${fileId}-${side === 'previous' ? 'L' : 'R'}${line}`;
}

/** Gitea's `blob_excerpt` path: the unchanged lines `from`..`to` (0: to the end) of a file at `sha`, as diff rows. */
export function excerptUrl(base: string, sha: string, path: string, from: number, to: number, shift: number, style: DiffStyle): string {
  const q = new URLSearchParams({ path, from: String(from), to: String(to), shift: String(shift), style });
  return `${base}/blob_excerpt/${sha}?${q.toString()}`;
}

/** `?style=`: split or unified (anything else is unified, as Gitea). */
export function diffStyleOf(raw: unknown): DiffStyle {
  return raw === 'split' ? 'split' : 'unified';
}

/** The web UI's one diff renderer (commit, compare, pull request): the template only lays the rows out. */
export function diffView(files: DiffFile[], links: DiffLinks): DiffView {
  const views = files.map((f) => fileView(f, links));
  return {
    style: links.style,
    files: views,
    additions: views.reduce((n, f) => n + f.additions, 0),
    deletions: views.reduce((n, f) => n + f.deletions, 0),
  };
}

function modeText(f: DiffFile): string | null {
  if (f.oldMode && f.newMode) return `${f.oldMode} → ${f.newMode}`;
  if (f.status === 'added' && f.newMode && f.newMode !== '100644') return f.newMode;
  return null;
}

function fileView(f: DiffFile, links: DiffLinks): DiffFileView {
  const id = fileAnchor(f.newPath);
  const name = f.status === 'deleted' ? f.oldPath : f.newPath;
  return {
    id,
    name,
    oldName: f.status === 'renamed' ? f.oldPath : null,
    status: f.status,
    mode: modeText(f),
    binary: f.binary,
    additions: f.additions,
    deletions: f.deletions,
    collapsed: f.additions + f.deletions > DIFF_COLLAPSE_LINES,
    rows: f.binary ? [] : rowsOf(f, id, links),
    outdated: links.outdated?.get(name) ?? [],
  };
}

/** The first line a hunk's range covers on one side (a count of 0 names the line before). */
function firstLine(start: number, count: number): number {
  return count === 0 ? start + 1 : start;
}

// Highlighted hunks by blob pair: the same blobs give the same hunks, and highlighting is most of a diff page's
// work (docs/web-review.md). Bounded; files above the line bound are not kept.
const HIGHLIGHTED = new LruCache<string[][]>(2000);
const HIGHLIGHT_CACHE_MAX_LINES = 2000;

function highlightHunks(f: DiffFile): string[][] {
  const key = f.blobs ? `${f.blobs}\0${f.oldPath}\0${f.newPath}` : null;
  const cached = key ? HIGHLIGHTED.get(key) : undefined;
  if (cached) return cached;
  const bytes = f.hunks.reduce((n, h) => h.lines.reduce((m, l) => m + Buffer.byteLength(l.text, 'utf8') + 1, n), 0);
  const big = bytes > HIGHLIGHT_MAX_BYTES;
  const oldLanguage = big ? null : languageFor(f.oldPath);
  const newLanguage = big ? null : languageFor(f.newPath);
  const hunks = f.hunks.map((h) => highlightHunk(h, oldLanguage, newLanguage));
  const lines = f.hunks.reduce((n, h) => n + h.lines.length, 0);
  if (key && lines <= HIGHLIGHT_CACHE_MAX_LINES) HIGHLIGHTED.set(key, hunks);
  return hunks;
}

/** Highlighted per hunk (lines between hunks are unknown); the old side only for its removed lines. */
function highlightHunk(h: DiffHunk, oldLanguage: string | null, newLanguage: string | null): string[] {
  const out = h.lines.map(() => '');
  const openAfter = h.lines.map(() => false);
  const newSide = indexesOf(h, (l) => l.kind === 'add' || l.kind === 'context');
  if (newSide.length) {
    const { lines, openAtEnd } = highlightSpans(textOf(h, newSide), newLanguage);
    newSide.forEach((i, k) => {
      out[i] = lines[k] ?? '';
      openAfter[i] = openAtEnd[k] ?? false;
    });
  }
  let lastDel = -1;
  h.lines.forEach((l, i) => {
    if (l.kind === 'del') lastDel = i;
  });
  if (lastDel < 0) return out;
  let from = h.lines.findIndex((l) => l.kind === 'add' || l.kind === 'del');
  while (from > 0 && openAfter[from - 1]) from--;
  const oldSide = indexesOf(h, (l, i) => (l.kind === 'del' || l.kind === 'context') && i >= from && i <= lastDel);
  const oldHtml = highlightAs(textOf(h, oldSide), oldLanguage);
  oldSide.forEach((i, k) => {
    if (h.lines[i].kind === 'del') out[i] = oldHtml[k] ?? '';
  });
  return out;
}

function indexesOf(h: DiffHunk, pick: (l: DiffHunk['lines'][number], i: number) => boolean): number[] {
  const picked: number[] = [];
  h.lines.forEach((l, i) => {
    if (pick(l, i)) picked.push(i);
  });
  return picked;
}

function textOf(h: DiffHunk, picked: number[]): string {
  return `${picked.map((i) => h.lines[i].text).join('\n')}\n`;
}

function rowsOf(f: DiffFile, fileId: string, links: DiffLinks): DiffRow[] {
  const html = highlightHunks(f);
  const path = f.status === 'deleted' ? f.oldPath : f.newPath;
  const cell = (kind: DiffCell['kind'], side: DiffSide, no: number | null, text: string): DiffCell => ({
    kind, no, html: text,
    anchor: no === null ? null : lineAnchor(fileId, side, no),
    commentUrl: no !== null && links.commentUrl ? links.commentUrl(path, side, no) : null,
  });
  const empty: DiffCell = { kind: 'empty', no: null, html: '', anchor: null, commentUrl: null };
  const rows: DiffRow[] = [];
  const commentsAt = (side: DiffSide, no: number | null) => (no === null ? [] : (links.comments?.get(lineKey(path, side, no)) ?? []));
  const pushComments = (list: LineComment[]) => {
    if (list.length) rows.push({ type: 'comments', comments: list });
  };
  let nextNew = 1;
  let nextOld = 1;
  f.hunks.forEach((h, hi) => {
    const htmlOf = html[hi];
    const gap = expander(f, h, nextOld, nextNew, links);
    if (gap) rows.push(gap);
    rows.push({ type: 'hunk', header: h.header });
    if (links.style === 'unified') {
      h.lines.forEach((l, li) => {
        if (l.kind === 'note') {
          rows.push({ type: 'line', kind: 'note', oldNo: null, newNo: null, cell: { ...empty, html: escapeHtml(l.text) } });
          return;
        }
        const side: DiffSide = l.kind === 'del' ? 'previous' : 'proposed';
        const no = side === 'previous' ? l.oldNo : l.newNo;
        rows.push({ type: 'line', kind: l.kind, oldNo: l.oldNo, newNo: l.newNo, cell: cell(l.kind, side, no, htmlOf[li]) });
        pushComments(l.kind === 'context' ? [...commentsAt('previous', l.oldNo), ...commentsAt('proposed', l.newNo)] : commentsAt(side, no));
      });
    } else {
      // Split: a run of removed lines pairs with the run of added lines after it; context shows its new side's HTML.
      const lines = h.lines.map((l, li) => ({ ...l, html: htmlOf[li] })).filter((l) => l.kind !== 'note');
      for (let i = 0; i < lines.length;) {
        const l = lines[i];
        if (l.kind === 'context') {
          const left = cell('context', 'previous', l.oldNo, l.html);
          const right = cell('context', 'proposed', l.newNo, l.html);
          rows.push({ type: 'pair', left, right });
          pushComments([...commentsAt('previous', l.oldNo), ...commentsAt('proposed', l.newNo)]);
          i++;
          continue;
        }
        const dels = [];
        while (i < lines.length && lines[i].kind === 'del') dels.push(lines[i++]);
        const adds = [];
        while (i < lines.length && lines[i].kind === 'add') adds.push(lines[i++]);
        for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
          const d = dels[k];
          const a = adds[k];
          const left = d ? cell('del', 'previous', d.oldNo, d.html) : empty;
          const right = a ? cell('add', 'proposed', a.newNo, a.html) : empty;
          rows.push({ type: 'pair', left, right });
          pushComments([...commentsAt('previous', d?.oldNo ?? null), ...commentsAt('proposed', a?.newNo ?? null)]);
        }
      }
    }
    nextOld = firstLine(h.oldStart, h.oldCount) + h.oldCount;
    nextNew = firstLine(h.newStart, h.newCount) + h.newCount;
  });
  if (f.hunks.length && f.status !== 'deleted' && f.status !== 'added') {
    const rest = links.headBlobUrl ? `${links.headBlobUrl(path)}#L${nextNew}` : null;
    rows.push({
      type: 'expand', text: 'Show the rest of the file', href: rest,
      excerpt: links.excerptUrl ? links.excerptUrl(path, nextNew, 0, nextOld - nextNew) : null,
    });
  }
  return rows;
}

/** The row that shows the unchanged lines before a hunk (none when the hunk follows on directly). */
function expander(f: DiffFile, h: DiffHunk, nextOld: number, nextNew: number, links: DiffLinks): DiffRow | null {
  const from = nextNew;
  const to = firstLine(h.newStart, h.newCount) - 1;
  if (to < from || f.status === 'added' || f.status === 'deleted') return null;
  const path = f.newPath;
  const count = to - from + 1;
  return {
    type: 'expand',
    text: `Show ${count === 1 ? '1 hidden line' : `${count} hidden lines`} (${from}–${to})`,
    href: links.headBlobUrl ? `${links.headBlobUrl(path)}#L${from}` : null,
    excerpt: links.excerptUrl ? links.excerptUrl(path, from, to, nextOld - nextNew) : null,
  };
}

/** The expander's fragment: unchanged lines `from`..`to` as rows; old line = new line + `shift`. */
export function excerptRows(text: string, name: string, from: number, to: number, shift: number, style: DiffStyle): DiffRow[] {
  const { lines } = highlightLines(text, name);
  const last = to === 0 ? lines.length : Math.min(to, lines.length);
  const rows: DiffRow[] = [];
  for (let n = Math.max(1, from); n <= last; n++) {
    const html = lines[n - 1];
    const left: DiffCell = { kind: 'context', no: n + shift, html, anchor: null, commentUrl: null };
    const right: DiffCell = { kind: 'context', no: n, html, anchor: null, commentUrl: null };
    rows.push(style === 'split'
      ? { type: 'pair', left, right }
      : { type: 'line', kind: 'context', oldNo: n + shift, newNo: n, cell: right });
  }
  return rows;
}
