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

/** Branch and tag names may contain `/`: the longest known name wins, as Gitea resolves them; null → 404. */
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

/** The first segment as the ref: pages start reading with it and read again when the names say otherwise. */
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
