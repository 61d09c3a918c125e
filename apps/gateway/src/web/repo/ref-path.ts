import type { RefNamesReply } from '@cairn/contracts';

/** The kinds of ref in Gitea's web paths: `/src/branch/<b>/<path>`, `/src/tag/<t>/<path>`, `/src/commit/<sha>/<path>`. */
export type RefKind = 'branch' | 'tag' | 'commit';

export interface RefPath {
  kind: RefKind;
  ref: string;
  path: string;
}

const COMMIT_ID = /^[0-9a-f]{4,64}$/i;

export function isRefKind(s: string): s is RefKind {
  return s === 'branch' || s === 'tag' || s === 'commit';
}

/**
 * Splits the rest of a web path into ref and tree path. Branch and tag names may contain `/`, so the longest known
 * name that the rest starts with wins (as Gitea resolves them); a commit is the first segment when it looks like an
 * id. Null when nothing matches (the page answers 404).
 */
export function splitRefPath(kind: RefKind, rest: string, names: RefNamesReply): RefPath | null {
  const trimmed = rest.replace(/^\/+|\/+$/g, '');
  if (kind === 'commit') {
    const cut = trimmed.indexOf('/');
    const ref = cut < 0 ? trimmed : trimmed.slice(0, cut);
    return COMMIT_ID.test(ref) ? { kind, ref, path: cut < 0 ? '' : trimmed.slice(cut + 1) } : null;
  }
  const known = kind === 'branch' ? names.branches : names.tags;
  let best: string | null = null;
  for (const name of known) {
    if ((trimmed === name || trimmed.startsWith(`${name}/`)) && (best === null || name.length > best.length)) best = name;
  }
  if (best === null) return null;
  return { kind, ref: best, path: trimmed.slice(best.length + 1) };
}

/**
 * The split {@link splitRefPath} gives when the ref's name has no `/` (most do): the first segment is the ref. Pages
 * start reading with it before the ref names are known, and read again when the names say otherwise.
 */
export function likelyRefPath(kind: RefKind, rest: string): RefPath {
  const trimmed = rest.replace(/^\/+|\/+$/g, '');
  const cut = trimmed.indexOf('/');
  return { kind, ref: cut < 0 ? trimmed : trimmed.slice(0, cut), path: cut < 0 ? '' : trimmed.slice(cut + 1) };
}

/** The URL path of a ref and tree path under a repository (`src`, `raw`, `commits`, `blame`), each segment encoded. */
export function refUrl(repoBase: string, section: 'src' | 'raw' | 'commits' | 'blame', kind: RefKind, ref: string, path = ''): string {
  const segs = [...ref.split('/'), ...(path ? path.split('/') : [])].map(encodeURIComponent).join('/');
  return `${repoBase}/${section}/${kind}/${segs}`;
}
