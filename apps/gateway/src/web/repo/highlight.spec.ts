import configured from 'highlight.js/lib/common';
import hljs from 'highlight.js/lib/core';
import css from 'highlight.js/lib/languages/css';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_MAX_BYTES, highlightAs, highlightLines, highlightSpans, languageFor } from './highlight.js';

describe('highlightLines', () => {
  it('highlights a known language, one balanced line per source line', () => {
    const { language, lines } = highlightLines('/* a\n b */\nconst x = "<y>";\n', 'main.ts');
    expect(language).toBe('ts');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('<span class="hljs-comment">/* a</span>');
    expect(lines[1]).toBe('<span class="hljs-comment"> b */</span>');
    expect(lines[2]).toContain('&lt;y&gt;');
    for (const l of lines) expect(l.match(/<span/g)?.length ?? 0).toBe(l.match(/<\/span>/g)?.length ?? 0);
  });

  it('writes the same HTML as highlight.js\'s own emitter (scopes with parts, embedded languages, escapes)', () => {
    // A separate instance keeps highlight.js's default emitter: the module configures the shared one.
    const reference = hljs.newInstance();
    reference.registerLanguage('typescript', typescript);
    reference.registerLanguage('xml', xml);
    reference.registerLanguage('css', css);
    const code = [
      '/** Docs with @param x and <b>tags</b> & "quotes" */',
      'export class Box<T> extends Base { get(\'k\'): T { return this.x?.y ?? 0x1f; } }',
      'function render(a: number) { return html`<div class="a">${a}</div>` + css`p { color: red; }`; }',
      'const s = `multi',
      'line ${1 + 2} template`; // trailing <comment>',
    ].join('\n');
    const theirs = reference.highlight(code, { language: 'typescript', ignoreIllegals: true }).value;
    expect(theirs).toContain('language-xml');
    expect(theirs).toContain('title function_');
    expect(configured.highlight(code, { language: 'typescript', ignoreIllegals: true }).value).toBe(theirs);
    expect(highlightAs(code, 'typescript')[4]).toBe('<span class="hljs-string">line <span class="hljs-subst">${<span class="hljs-number">1</span> + <span class="hljs-number">2</span>}</span> template`</span>; <span class="hljs-comment">// trailing &lt;comment&gt;</span>');
  });

  it('tells which lines end inside a token', () => {
    expect(highlightSpans('/* a\n b */ let s = `x\ny`;\nz();\n', 'typescript').openAtEnd).toEqual([true, true, false, false]);
    expect(highlightSpans('/* a\nb\n', null).openAtEnd).toEqual([false, false]);
  });

  it('escapes unknown and oversized files without highlighting', () => {
    expect(highlightLines('<b>&</b>', 'notes.unknownext')).toEqual({ language: null, lines: ['&#60;b&#62;&#38;&#60;/b&#62;'] });
    const big = 'x = 1\n'.repeat(HIGHLIGHT_MAX_BYTES / 6 + 10);
    expect(highlightLines(big, 'big.py').language).toBeNull();
  });

  it('picks languages by extension or well-known name', () => {
    expect(languageFor('Makefile')).toBe('makefile');
    expect(languageFor('a.go')).toBe('go');
    expect(languageFor('.bashrc')).toBeNull();
    expect(languageFor('LICENSE')).toBeNull();
  });
});
