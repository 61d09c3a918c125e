import type { CommitMetaDto, ReferenceDto, TagDto } from '@cairn/contracts';

/** Gitea's path escaping of each segment (`util.PathEscapeSegments`). */
export function escapeSegments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** What a tag is, whatever its kind: a lightweight tag's "object" is its commit. */
export interface TagFacts {
  name: string;
  /** Tag object id, or the commit id of a lightweight tag. */
  id: string;
  commit: string;
  message: string;
  /** Tagger date, or the commit's committer date (RFC 3339). */
  created: string;
}

export function toTagDto(t: TagFacts, apiUrl: string, htmlUrl: string): TagDto {
  const commit: CommitMetaDto = { url: `${apiUrl}/git/commits/${t.commit}`, sha: t.commit, created: t.created };
  return {
    name: t.name,
    message: t.message.trim(),
    id: t.id,
    commit,
    zipball_url: `${htmlUrl}/archive/${encodeURIComponent(`${t.name}.zip`)}`,
    tarball_url: `${htmlUrl}/archive/${encodeURIComponent(`${t.name}.tar.gz`)}`,
  };
}

export function toReferenceDto(ref: string, sha: string, type: string, apiUrl: string): ReferenceDto {
  return { ref, url: `${apiUrl}/git/${escapeSegments(ref)}`, object: { type, sha, url: `${apiUrl}/git/${type}s/${sha}` } };
}
