import { describe, expect, it } from 'vitest';
import { isMarkdownName, renderMarkdown } from './markdown.js';

const render = (s: string) => renderMarkdown(s, '/o/r/src/branch/main/docs/', '/o/r/raw/branch/main/docs/');

describe('renderMarkdown', () => {
  it('renders headings, lists and code', () => {
    const html = render('# Title\n\n- one\n- two\n\n```js\nlet a = 1;\n```\n');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<code class="language-js">let a = 1;\n</code>');
  });

  it('escapes raw HTML and drops script URLs', () => {
    const html = render('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1)) ![y](data:text/html,hi)');
    expect(html).not.toMatch(/<script|<img src="?x|href="javascript|src="data:text/);
    expect(html).toContain('&lt;script&gt;');
  });

  it('resolves relative links and images against the document folder', () => {
    const html = render('[guide](guide.md) [up](../README.md#usage) [abs](https://example.com/) ![logo](./img/logo.png) [top](#t)');
    expect(html).toContain('href="/o/r/src/branch/main/docs/guide.md"');
    expect(html).toContain('href="/o/r/src/branch/main/README.md#usage"');
    expect(html).toContain('href="https://example.com/" rel="nofollow noopener"');
    expect(html).toContain('src="/o/r/raw/branch/main/docs/img/logo.png"');
    expect(html).toContain('href="#t"');
  });

  it('knows Markdown file names', () => {
    expect(isMarkdownName('README.md')).toBe(true);
    expect(isMarkdownName('notes.MARKDOWN')).toBe(true);
    expect(isMarkdownName('README')).toBe(false);
  });
});
