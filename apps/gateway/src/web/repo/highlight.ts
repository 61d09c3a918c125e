import hljs from 'highlight.js/lib/common';

/** Files above this size are shown without highlighting (highlighting is the costly part of a file view). */
export const HIGHLIGHT_MAX_BYTES = 256 * 1024;

/** File names whose language the extension does not tell. */
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

/**
 * A text file as escaped HTML lines, highlighted when its language is known and it is small enough. Each line is
 * balanced HTML (a token spanning lines is closed and reopened), so the page can number lines in a table.
 */
export function highlightLines(text: string, fileName: string): { language: string | null; lines: string[] } {
  const language = Buffer.byteLength(text, 'utf8') <= HIGHLIGHT_MAX_BYTES ? languageFor(fileName) : null;
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (!language) return { language: null, lines: body.split('\n').map(escapeHtml) };
  const html = hljs.highlight(body, { language, ignoreIllegals: true }).value;
  return { language, lines: splitBalanced(html) };
}

/** Splits highlight.js output at newlines, closing the spans open at each line end and reopening them after. */
function splitBalanced(html: string): string[] {
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
  return lines;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
