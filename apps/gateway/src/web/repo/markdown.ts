import MarkdownIt from 'markdown-it';

/** Documents larger than this are shown as plain text: rendering must stay cheap on every page view. */
export const MARKDOWN_MAX_BYTES = 512 * 1024;

/**
 * Markdown as the README pane shows it, safe by construction: raw HTML in the source is escaped (`html: false`),
 * so no tag or attribute the author wrote reaches the page; link and image targets pass markdown-it's URL check
 * (no `javascript:`, `vbscript:`, `file:` or non-image `data:`); links open with `rel="nofollow noopener"`. Relative
 * targets are resolved against the folder the document is in, so `docs/a.md` and `./img.png` work as on Gitea.
 */
const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

/**
 * Wraps a token rule so that the token's URL attribute is resolved against a base from the render env and the
 * given fixed attributes are set before the original rule renders it.
 */
function resolvingRule(
  rule: 'link_open' | 'image', attr: 'href' | 'src', base: keyof MarkdownEnv, fixed: Readonly<Record<string, string>>,
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
};

/** Keeps absolute URLs, fragments and site-absolute paths; resolves the rest against `base`. */
function resolveRelative(target: string, base: string): string {
  if (target === '' || target.startsWith('#') || target.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(target)) return target;
  const url = new URL(target, `http://x${base}`);
  return url.pathname + url.search + url.hash;
}

/** Renders a Markdown document to HTML (see above); `linkBase`/`imageBase` are site paths ending with `/`. */
export function renderMarkdown(source: string, linkBase: string, imageBase: string): string {
  return md.render(source, { linkBase, imageBase } satisfies MarkdownEnv);
}

/** Is this file name one the README pane renders as Markdown? */
export function isMarkdownName(name: string): boolean {
  return /\.(md|markdown|mdown|mkd)$/i.test(name);
}
