// Repository names contain `/`: the endpoint is recognised by the path's tail, everything before it is the name.
import { OciError } from './oci-errors.js';
import { isImageName, truncate } from './oci-reference.js';

export type OciEndpoint =
  | { kind: 'base' }
  | { kind: 'token' }
  | { kind: 'catalog' }
  | { kind: 'tags'; owner: string; image: string }
  | { kind: 'manifest'; owner: string; image: string; reference: string }
  | { kind: 'uploads'; owner: string; image: string; uploadId?: string }
  | { kind: 'blob'; owner: string; image: string; digest: string };

const TAIL_PATTERNS: [RegExp, (name: string, arg: string) => OciEndpoint][] = [
  [/^(.+)\/tags\/list$/, (name) => ({ kind: 'tags', ...split(name) })],
  [/^(.+)\/manifests\/([^/]+)$/, (name, reference) => ({ kind: 'manifest', ...split(name), reference })],
  [/^(.+)\/blobs\/uploads\/([^/]*)$/, (name, id) => ({ kind: 'uploads', ...split(name), ...(id ? { uploadId: id } : {}) })],
  [/^(.+)\/blobs\/([^/]+)$/, (name, digest) => ({ kind: 'blob', ...split(name), digest })],
];

/** Undefined when the path names no endpoint (404); NAME_INVALID when the name breaks the spec's rules. */
export function parseOciPath(path: string): OciEndpoint | undefined {
  if (path === '/v2' || path === '/v2/') return { kind: 'base' };
  if (!path.startsWith('/v2/')) return undefined;
  const rest = path.slice('/v2/'.length);
  if (rest === 'token') return { kind: 'token' };
  if (rest === '_catalog') return { kind: 'catalog' };
  const segments = rest.split('/').map(decodeSegment);
  if (segments.some((s) => s === undefined)) return undefined;
  const decoded = segments.join('/');
  for (const [pattern, build] of TAIL_PATTERNS) {
    const m = pattern.exec(decoded);
    if (m) return build(m[1], m[2] ?? '');
  }
  return undefined;
}

function split(name: string): { owner: string; image: string } {
  const slash = name.indexOf('/');
  const owner = slash < 0 ? '' : name.slice(0, slash);
  const image = slash < 0 ? '' : name.slice(slash + 1);
  if (!owner || !isImageName(owner) || !isImageName(image) || name.length > 255) {
    throw new OciError('NAME_INVALID', `"${truncate(name)}" is not a valid repository name (<owner>/<image>, lowercase)`);
  }
  return { owner, image };
}

function decodeSegment(segment: string): string | undefined {
  try {
    const s = decodeURIComponent(segment);
    return s.includes('/') || s.includes('\0') ? undefined : s;
  } catch {
    return undefined;
  }
}
