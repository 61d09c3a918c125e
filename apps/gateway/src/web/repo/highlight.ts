import type { Emitter } from 'highlight.js';
import hljs from 'highlight.js/lib/common';

/** Files above this size are shown without highlighting (highlighting is the costly part of a file view). */
export const HIGHLIGHT_MAX_BYTES = 256 * 1024;

const BY_NAME: Readonly<Record<string, string>> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  'cmakelists.txt': 'cmake',
  gemfile: 'ruby',
  rakefile: 'ruby',
};

/** The highlight.js language for a file name, or null (plain text: no guessing from the content). */
export function languageFor(fileName: string): string | null {
  const lower = fileName.toLowerCase();
  const named = BY_NAME[lower];
  if (named && hljs.getLanguage(named)) return named;
  const dot = lower.lastIndexOf('.');
  if (dot <= 0) return null;
  const ext = lower.slice(dot + 1);
  return hljs.getLanguage(ext) ? ext : null;
}

/** Each line is balanced HTML (a token spanning lines is closed and reopened), so pages can number lines in a table. */
export function highlightLines(text: string, fileName: string): { language: string | null; lines: string[] } {
  const language = Buffer.byteLength(text, 'utf8') <= HIGHLIGHT_MAX_BYTES ? languageFor(fileName) : null;
  return { language, lines: highlightAs(text, language) };
}

/** {@link highlightLines} in a language already chosen (null: escaped only), for callers that bound the size themselves. */
export function highlightAs(text: string, language: string | null): string[] {
  return highlightSpans(text, language).lines;
}

/** Also whether a token is open at each line's end: where none is, a caller may highlight from there, not the top. */
export function highlightSpans(text: string, language: string | null): { lines: string[]; openAtEnd: boolean[] } {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const openAtEnd: boolean[] = [];
  if (!language) {
    const lines = body.split('\n').map(escapeHtml);
    return { lines, openAtEnd: lines.map(() => false) };
  }
  return { lines: splitBalanced(hljs.highlight(body, { language, ignoreIllegals: true }).value, openAtEnd), openAtEnd };
}

const HTML_SPECIAL = /[&<>"']/;
const HTML_SPECIALS = /[&<>"']/g;
const ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** The opening tag of a scope, by scope: grammars have a few dozen, each used for many tokens. */
const OPENING = new Map<string, string>();

/** highlight.js's tag for a scope: `title.function` → class `hljs-title function_`, `language:xml` → `language-xml`. */
function openingTag(scope: string): string {
  let tag = OPENING.get(scope);
  if (tag === undefined) {
    const [head, ...rest] = scope.split('.');
    const css = scope.startsWith('language:')
      ? `language-${scope.slice('language:'.length)}`
      : [`hljs-${head}`, ...rest.map((part, i) => `${part}${'_'.repeat(i + 1)}`)].join(' ');
    tag = `<span class="${css}">`;
    OPENING.set(scope, tag);
  }
  return tag;
}

/** The default emitter's tree walk and escaping cost a fifth of a diff's highlighting; same bytes (tests compare). */
class HtmlEmitter implements Emitter {
  html = '';
  private depth = 0;

  addText(text: string): void {
    this.html += HTML_SPECIAL.test(text) ? text.replace(HTML_SPECIALS, (c) => ENTITY[c]) : text;
  }

  startScope(scope: string): void {
    this.openNode(scope);
  }

  endScope(): void {
    this.closeNode();
  }

  openNode(scope: string): void {
    this.html += openingTag(scope);
    this.depth++;
  }

  closeNode(): void {
    if (this.depth === 0) return;
    this.html += '</span>';
    this.depth--;
  }

  __addSublanguage(emitter: Emitter, language: string): void {
    const inner = (emitter as HtmlEmitter).html;
    this.html += language ? `${openingTag(`language:${language}`)}${inner}</span>` : inner;
  }

  finalize(): void {
    this.html += '</span>'.repeat(this.depth);
    this.depth = 0;
  }

  toHTML(): string {
    return this.html;
  }
}

// This module is the only user of highlight.js in the gateway, so the one configuration is its own.
hljs.configure({ __emitter: HtmlEmitter });

/** Splits highlight.js output at newlines, closing the spans open at each line end and reopening them after. */
function splitBalanced(html: string, openAtEnd: boolean[]): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = '';
  const tag = /<span[^>]*>|<\/span>|\n/g;
  let last = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    current += html.slice(last, m.index);
    last = tag.lastIndex;
    if (m[0] === '\n') {
      lines.push(current + '</span>'.repeat(open.length));
      openAtEnd.push(open.length > 0);
      current = open.join('');
    } else if (m[0] === '</span>') {
      open.pop();
      current += m[0];
    } else {
      open.push(m[0]);
      current += m[0];
    }
  }
  lines.push(current + html.slice(last));
  openAtEnd.push(open.length > 0);
  return lines;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
