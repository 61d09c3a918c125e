import { DomainError } from '@cairn/contracts';

/** A scoped name comes as two segments (`@scope/name`) or one (`@scope%2fname`, the npm CLI's form). */
export type NpmPath =
  | { kind: 'package'; name: string }
  | { kind: 'revision'; name: string; revision: string }
  | { kind: 'file'; name: string; version: string; filename: string }
  | { kind: 'file-revision'; name: string; version: string; filename: string; revision: string }
  | { kind: 'file-by-name'; name: string; filename: string }
  | { kind: 'dist-tags'; name: string }
  | { kind: 'dist-tag'; name: string; tag: string }
  | { kind: 'search' };

/** Parses the raw (still %-encoded) rest of the path; null when it addresses nothing; a 400 for bad encoding. */
export function parseNpmPath(rawRest: string): NpmPath | null {
  const segments = rawRest.split('/').map(decodeSegment);
  if (segments.length === 0 || segments.some((s) => s === '')) return null;
  if (segments[0] === '-') {
    if (segments.length === 3 && segments[1] === 'v1' && segments[2] === 'search') return { kind: 'search' };
    if (segments[1] !== 'package') return null;
    const taken = takeName(segments, 2);
    if (!taken || segments[taken.next] !== 'dist-tags') return null;
    const tail = segments.slice(taken.next + 1);
    if (tail.length === 0) return { kind: 'dist-tags', name: taken.name };
    if (tail.length === 1) return { kind: 'dist-tag', name: taken.name, tag: tail[0] };
    return null;
  }
  const taken = takeName(segments, 0);
  if (!taken) return null;
  const { name } = taken;
  const tail = segments.slice(taken.next);
  if (tail.length === 0) return { kind: 'package', name };
  if (tail.length === 2 && tail[0] === '-rev') return { kind: 'revision', name, revision: tail[1] };
  if (tail[0] !== '-') return null;
  if (tail.length === 2) return { kind: 'file-by-name', name, filename: tail[1] };
  if (tail.length === 3) return { kind: 'file', name, version: tail[1], filename: tail[2] };
  if (tail.length === 5 && tail[3] === '-rev') {
    return { kind: 'file-revision', name, version: tail[1], filename: tail[2], revision: tail[4] };
  }
  return null;
}

function takeName(segments: string[], at: number): { name: string; next: number } | null {
  const first = segments[at];
  if (first === undefined) return null;
  if (!first.startsWith('@') || first.includes('/')) return { name: first, next: at + 1 };
  const second = segments[at + 1];
  if (second === undefined || second === '-' || second === '-rev') return null;
  return { name: `${first}/${second}`, next: at + 2 };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw DomainError.invalid(`the path segment "${segment.slice(0, 100)}" is not valid percent-encoding`);
  }
}
