import MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';

/** Documents larger than this are shown as plain text: rendering must stay cheap on every page view. */
export const MARKDOWN_MAX_BYTES = 512 * 1024;

/** Safe by construction: raw HTML escaped, URLs checked by markdown-it, links `rel="nofollow noopener"`. */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** Resolves the token's URL attribute against a base from the render env and sets fixed attributes. */
function resolvingRule(
  rule: 'link_open' | 'image', attr: 'href' | 'src', base: 'linkBase' | 'imageBase', fixed: Readonly<Record<string, string>>,
): void {
  const original = md.renderer.rules[rule] ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules[rule] = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const target = token.attrGet(attr);
    if (target !== null) token.attrSet(attr, resolveRelative(String(target), (env as MarkdownEnv)[base]));
    for (const [name, value] of Object.entries(fixed)) token.attrSet(name, value);
    return original(tokens, idx, options, env, self);
  };
}
resolvingRule('link_open', 'href', 'linkBase', { rel: 'nofollow noopener' });
resolvingRule('image', 'src', 'imageBase', { loading: 'lazy' });

type MarkdownEnv = {
  /** Folder URL relative links resolve against (ends with `/`). */
  linkBase: string;
  /** Folder URL relative images resolve against (the raw route, so the bytes load). */
  imageBase: string;
  /** The repository the text belongs to (`/{owner}/{repo}`): `#n` and commit ids link into it. */
  repoBase?: string;
};

/** Gitea's references outside links and code; a commit id needs a digit, so words like "defaced" stay words. */
const REFERENCE = new RegExp([
  String.raw`(?<![\w/.-])(?<owner>[A-Za-z0-9][\w.-]*)\/(?<repo>[\w.-]+)#(?<crossIndex>\d{1,9})(?!\w)`,
  String.raw`(?<![\w&#/])#(?<index>\d{1,9})(?!\w)`,
  String.raw`(?<![\w.@/])@(?<user>[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9])?)`,
  String.raw`(?<![\w/])(?<sha>(?=[a-f]*\d)[0-9a-f]{7,40})(?![\w])`,
].join('|'), 'g');

function referenceLink(groups: Record<string, string | undefined>, repoBase: string | undefined): { href: string; text: string } | null {
  const seg = encodeURIComponent;
  if (groups.owner) return { href: `/${seg(groups.owner)}/${seg(groups.repo!)}/issues/${groups.crossIndex}`, text: `${groups.owner}/${groups.repo}#${groups.crossIndex}` };
  if (groups.user) return { href: `/${seg(groups.user)}`, text: `@${groups.user}` };
  if (!repoBase) return null;
  if (groups.index) return { href: `${repoBase}/issues/${groups.index}`, text: `#${groups.index}` };
  return { href: `${repoBase}/commit/${groups.sha}`, text: groups.sha!.slice(0, 10) };
}

function linkReferences(state: StateCore, token: Token, repoBase: string | undefined): Token[] {
  const out: Token[] = [];
  const text = token.content;
  let last = 0;
  const push = (content: string) => {
    if (!content) return;
    const t = new state.Token('text', '', 0);
    t.content = content;
    out.push(t);
  };
  for (const m of text.matchAll(REFERENCE)) {
    const link = referenceLink(m.groups ?? {}, repoBase);
    if (!link) continue;
    push(text.slice(last, m.index));
    const open = new state.Token('link_open', 'a', 1);
    open.attrs = [['href', link.href], ['class', 'ref']];
    out.push(open);
    push(link.text);
    out.push(new state.Token('link_close', 'a', -1));
    last = m.index + m[0].length;
  }
  if (!out.length) return [token];
  push(text.slice(last));
  return out;
}

md.core.ruler.push('cairn_references', (state) => {
  const { repoBase } = state.env as MarkdownEnv;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    let depth = 0;
    block.children = block.children.flatMap((t) => {
      if (t.type === 'link_open') depth++;
      if (t.type === 'link_close') depth--;
      return t.type === 'text' && depth === 0 ? linkReferences(state, t, repoBase) : [t];
    });
  }
});

/** Task-list items (`- [ ] todo`, `- [x] done`) start with a disabled checkbox, as on Gitea: markers become inputs. */
md.core.ruler.push('cairn_task_lists', (state) => {
  const tokens = state.tokens;
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i];
    if (inline.type !== 'inline' || tokens[i - 1].type !== 'paragraph_open' || tokens[i - 2].type !== 'list_item_open') continue;
    const first = inline.children?.[0];
    const marker = first?.type === 'text' ? /^\[([ xX])\] /.exec(first.content) : null;
    if (!first || !marker) continue;
    first.content = first.content.slice(marker[0].length);
    const box = new state.Token('html_inline', '', 0);
    // Fixed markup of ours (the author's text never reaches it): safe under `html: false`.
    box.content = marker[1] === ' '
      ? '<input type="checkbox" class="task" disabled aria-label="Task to do"> '
      : '<input type="checkbox" class="task" disabled checked aria-label="Task done"> ';
    inline.children!.unshift(box);
    tokens[i - 2].attrJoin('class', 'task-list-item');
  }
});

/** Keeps absolute URLs, fragments and site-absolute paths; resolves the rest against `base`. */
function resolveRelative(target: string, base: string): string {
  if (target === '' || target.startsWith('#') || target.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(target)) return target;
  const url = new URL(target, `http://x${base}`);
  return url.pathname + url.search + url.hash;
}

/** `linkBase`/`imageBase` end with `/`; without `repoBase`, `#n` and commit ids stay text. */
export function renderMarkdown(source: string, linkBase: string, imageBase: string, repoBase?: string): string {
  return md.render(source, { linkBase, imageBase, repoBase } satisfies MarkdownEnv);
}

export function isMarkdownName(name: string): boolean {
  return /\.(md|markdown|mdown|mkd)$/i.test(name);
}
