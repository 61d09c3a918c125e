import { toApiTime } from '@cairn/contracts';
import type { AttachmentDto, ReleaseDto, UserDto } from '@cairn/contracts';
import { escapeSegments } from '../git-data/git-data.mapper.js';
import type { ReleaseRow } from './releases.repository.js';

/** Gitea's `ToAPIRelease` (`published_at` is the creation time, as in Gitea). */
export function toReleaseDto(
  row: ReleaseRow,
  author: UserDto,
  apiUrl: string,
  htmlUrl: string,
  assets: AttachmentDto[] = [],
): ReleaseDto {
  const url = `${apiUrl}/releases/${row.id}`;
  const tag = escapeSegments(row.tagName); // Gitea's `util.PathEscapeSegments`: slashes stay
  const created = toApiTime(row.createdAt);
  return {
    id: row.id,
    tag_name: row.tagName,
    target_commitish: row.target,
    name: row.title,
    body: row.note,
    url,
    html_url: `${htmlUrl}/releases/tag/${tag}`,
    tarball_url: `${htmlUrl}/archive/${tag}.tar.gz`,
    zipball_url: `${htmlUrl}/archive/${tag}.zip`,
    upload_url: `${url}/assets`,
    draft: row.isDraft,
    prerelease: row.isPrerelease,
    created_at: created,
    published_at: created,
    author,
    assets,
  };
}
