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

  const inRepo = (s: string) => renderMarkdown(s, '/o/r/src/branch/main/', '/o/r/raw/branch/main/', '/o/r');

  it('links #n, owner/repo#n, @user and commit ids, in the rendering repository', () => {
    const html = inRepo('Fixes #12, see other/lib#3 and ask @alice-b. Broken by 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b.');
    expect(html).toContain('<a href="/o/r/issues/12" class="ref" rel="nofollow noopener">#12</a>');
    expect(html).toContain('<a href="/other/lib/issues/3" class="ref" rel="nofollow noopener">other/lib#3</a>');
    expect(html).toContain('<a href="/alice-b" class="ref" rel="nofollow noopener">@alice-b</a>.');
    expect(html).toContain('<a href="/o/r/commit/1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b" class="ref" rel="nofollow noopener">1a2b3c4d5e</a>.');
  });

  it('leaves references alone inside words, code, links and e-mail addresses, and without a repository', () => {
    const html = inRepo('a#1 x@example.com `#5 abc1234` [#6](https://e.com/) defaced 1234567890abcdefg path/#7');
    expect(html).not.toContain('class="ref"');
    expect(render('#4 and abc1234')).not.toContain('class="ref"');
    expect(render('@bob')).toContain('href="/bob"');
  });

  it('keeps the sanitizer: references never carry markup from the text', () => {
    const html = inRepo('@x"onmouseover=alert(1) #1<img src=x onerror=alert(1)> <script>#2</script>');
    expect(html).not.toMatch(/<img|<script|onmouseover="/);
    expect(html).toContain('<a href="/x" class="ref" rel="nofollow noopener">@x</a>&quot;onmouseover=alert(1)');
    expect(html).toContain('&lt;script&gt;<a href="/o/r/issues/2"');
  });

  it('renders task-list items as disabled checkboxes', () => {
    const html = inRepo('- [ ] write\n- [x] test\n- [y] not a task\n');
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" class="task" disabled aria-label="Task to do"> write</li>');
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" class="task" disabled checked aria-label="Task done"> test</li>');
    expect(html).toContain('<li>[y] not a task</li>');
  });

  it('knows Markdown file names', () => {
    expect(isMarkdownName('README.md')).toBe(true);
    expect(isMarkdownName('notes.MARKDOWN')).toBe(true);
    expect(isMarkdownName('README')).toBe(false);
  });
});
