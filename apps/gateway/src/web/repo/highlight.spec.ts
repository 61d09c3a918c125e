import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_MAX_BYTES, highlightLines, languageFor } from './highlight.js';

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
