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

const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const href = token.attrGet('href');
  if (href !== null) token.attrSet('href', resolveRelative(String(href), (env as MarkdownEnv).linkBase));
  token.attrSet('rel', 'nofollow noopener');
  return defaultLinkOpen(tokens, idx, options, env, self);
};
const defaultImage = md.renderer.rules.image!;
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const src = token.attrGet('src');
  if (src !== null) token.attrSet('src', resolveRelative(String(src), (env as MarkdownEnv).imageBase));
  token.attrSet('loading', 'lazy');
  return defaultImage(tokens, idx, options, env, self);
};

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
