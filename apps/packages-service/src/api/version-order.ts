import { compareSemver, parseSemver } from '../store/semver.js';

export interface OrderableVersion {
  id: number;
  version: string;
  createdAt: Date;
}

/** Gitea's order: newest first (creation time, then id). */
export function newestFirst(a: OrderableVersion, b: OrderableVersion): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;
}

/** `sort=semver` (Cairn's): highest first; non-semantic versions last; ties newest first. */
export function sortBySemver<T extends OrderableVersion>(versions: readonly T[]): T[] {
  const parsed = versions.map((v) => ({ v, s: parseSemver(v.version) }));
  parsed.sort((a, b) => {
    if (a.s && b.s) return compareSemver(b.s, a.s) || newestFirst(a.v, b.v);
    if (a.s) return -1;
    if (b.s) return 1;
    return newestFirst(a.v, b.v);
  });
  return parsed.map((p) => p.v);
}
