import { describe, expect, it } from 'vitest';
import { createViews } from '../core/views.js';
import { diffView, excerptRows, excerptUrl, fileAnchor, lineAnchor, lineKey, type DiffRow } from './diff-view.js';
import { parseUnifiedDiff } from './unified-diff.js';

const patch = [
  'diff --git a/src/a.ts b/src/a.ts',
  'index 1111111..2222222 100644',
  '--- a/src/a.ts',
  '+++ b/src/a.ts',
  '@@ -10,3 +10,3 @@ function f() {',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  ' const c = "<x>";',
  '@@ -30,2 +30,3 @@',
  ' x();',
  '+y();',
  ' z();',
  'diff --git a/run.sh b/run.sh',
  'old mode 100644',
  'new mode 100755',
].join('\n');

const links = {
  headBlobUrl: (p: string) => `/o/r/src/commit/abc/${p}`,
  excerptUrl: (p: string, from: number, to: number, shift: number) => excerptUrl('/o/r', 'abc', p, from, to, shift, 'unified'),
  commentUrl: (p: string, side: string, line: number) => `/o/r/pulls/1/files/reviews/new_comment?path=${p}&side=${side}&line=${line}`,
};

const kinds = (rows: DiffRow[]) => rows.map((r) => r.type);

describe('diffView', () => {
  it('lays out a unified diff: expanders for hidden lines, hunks, highlighted lines with anchors and comment links', () => {
    const v = diffView(parseUnifiedDiff(patch), { style: 'unified', ...links });
    const [a, sh] = v.files;
    expect([v.additions, v.deletions]).toEqual([2, 1]);
    expect(kinds(a.rows)).toEqual(['expand', 'hunk', 'line', 'line', 'line', 'line', 'expand', 'hunk', 'line', 'line', 'line', 'expand']);
    const first = a.rows[0] as Extract<DiffRow, { type: 'expand' }>;
    expect(first).toMatchObject({ text: 'Show 9 hidden lines (1–9)', href: '/o/r/src/commit/abc/src/a.ts#L1' });
    expect(first.excerpt).toBe('/o/r/blob_excerpt/abc?path=src%2Fa.ts&from=1&to=9&shift=0&style=unified');
    expect((a.rows[6] as Extract<DiffRow, { type: 'expand' }>).text).toBe('Show 17 hidden lines (13–29)');
    const removed = a.rows[3] as Extract<DiffRow, { type: 'line' }>;
    expect(removed).toMatchObject({ kind: 'del', oldNo: 11, newNo: null });
    expect(removed.cell.anchor).toBe(lineAnchor(a.id, 'previous', 11));
    expect(removed.cell.commentUrl).toContain('side=previous&line=11');
    expect(removed.cell.html).toContain('hljs-keyword');
    // Text is escaped by the highlighter, never passed through.
    expect((a.rows[5] as Extract<DiffRow, { type: 'line' }>).cell.html).toContain('&lt;x&gt;');
    expect(sh).toMatchObject({ name: 'run.sh', mode: '100644 → 100755', rows: [] });
    expect(a.id).toBe(fileAnchor('src/a.ts'));
  });

  it('pairs removed and added lines side by side in the split style, and puts comments under their line', () => {
    const comment = { id: 7, author: 'bob', html: '<p>hm</p>', at: '2026-01-01T00:00:00Z', pending: false, outdated: false };
    const v = diffView(parseUnifiedDiff(patch), { style: 'split', comments: new Map([[lineKey('src/a.ts', 'proposed', 11), [comment]]]) });
    const rows = v.files[0].rows;
    const pair = rows.find((r) => r.type === 'pair' && r.left.kind === 'del') as Extract<DiffRow, { type: 'pair' }>;
    expect([pair.left.no, pair.right.no, pair.right.kind]).toEqual([11, 11, 'add']);
    expect(rows[rows.indexOf(pair) + 1]).toEqual({ type: 'comments', comments: [comment] });
    const lone = rows.find((r) => r.type === 'pair' && r.right.kind === 'add' && r.left.kind === 'empty');
    expect(lone).toBeDefined();
    expect(pair.left.commentUrl).toBeNull();
  });

  it('highlights each hunk on its own: removed lines get the state of the context before them, context the new side', () => {
    const commented = [
      'diff --git a/c.ts b/c.ts',
      '--- a/c.ts',
      '+++ b/c.ts',
      '@@ -1,4 +1,4 @@',
      ' /* a comment',
      '-   still the comment */ let gone = 1;',
      '+   still the comment */ let kept = 2;',
      ' const after = "x";',
      ' const last = 3;',
      // A string left open in the hunk before does not reach into this one.
      '@@ -20,2 +20,3 @@',
      ' const z = 1;',
      '+const y = 2;',
      ' const w = 3;',
    ].join('\n');
    for (const style of ['unified', 'split'] as const) {
      const rows = diffView(parseUnifiedDiff(commented), { style }).files[0].rows;
      const cells = rows.flatMap((r) => (r.type === 'line' ? [r.cell] : r.type === 'pair' ? [r.left, r.right] : []));
      const html = (kind: string, text: string) => cells.find((c) => c.kind === kind && c.html.includes(text))!.html;
      expect(html('del', 'gone')).toMatch(/^<span class="hljs-comment">\s+still the comment \*\/<\/span>/);
      expect(html('add', 'kept')).toMatch(/^<span class="hljs-comment">\s+still the comment \*\/<\/span>/);
      expect(html('context', ' z = ')).toMatch(/^<span class="hljs-keyword">const<\/span>/);
      // Both columns of a context line show the same (new side) HTML.
      const context = cells.filter((c) => c.kind === 'context' && c.html.includes('after'));
      expect(context.length).toBe(style === 'split' ? 2 : 1);
      expect(new Set(context.map((c) => c.html)).size).toBe(1);
      expect(context[0].html).toContain('<span class="hljs-string">&quot;x&quot;</span>');
    }
  });

  it('collapses huge files and renders through the shared partial without a horizontal page', () => {
    const big = ['diff --git a/big.txt b/big.txt', '--- a/big.txt', '+++ b/big.txt', '@@ -1,0 +1,500 @@', ...Array.from({ length: 500 }, (_, i) => `+line ${i}`)].join('\n');
    const v = diffView(parseUnifiedDiff(big), { style: 'unified' });
    expect(v.files[0].collapsed).toBe(true);
    const html = createViews(false).render('repo/_diff', { diff: v, fileList: true });
    expect(html).toMatch(/<details class="card diff-file" id="diff-[0-9a-f]{12}">/);
    expect(html).toContain('class="code-scroll"');
  });

  it('gives the rows of hidden lines for an excerpt, the old side shifted', () => {
    const rows = excerptRows('a\nb\nc\nd\n', 'x.txt', 2, 3, 5, 'unified');
    expect(rows.map((r) => r.type === 'line' && [r.oldNo, r.newNo, r.cell.html])).toEqual([[7, 2, 'b'], [8, 3, 'c']]);
    expect(excerptRows('a\nb\n', 'x.txt', 2, 0, 0, 'split')).toHaveLength(1);
  });
});
