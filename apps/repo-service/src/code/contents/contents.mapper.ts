import type { ContentsEntryType, ContentsResponseDto } from '@cairn/contracts';
import { baseName, escapePathSegments, type LastCommit, type ResolvedRef } from '@cairn/git';

export interface ContentsLinkContext {
  apiUrl: string;
  htmlUrl: string;
  ref: ResolvedRef;
}

export interface ContentsEntryFacts {
  path: string;
  type: ContentsEntryType;
  sha: string;
  size: number;
  lastCommit: LastCommit | null;
  /** Base64 content (files only, when included). */
  content?: string | null;
  target?: string | null;
  submoduleUrl?: string | null;
}

/** Gitea's `RefWebLinkPath`: `branch/<name>`, `tag/<name>` or `commit/<id>`. */
export function refWebLinkPath(ref: ResolvedRef): string {
  return `${ref.kind}/${escapePathSegments(ref.name)}`;
}

/** Builds Gitea's `ContentsResponse` for one entry (links as Gitea's `getFileContentsByEntryInternal`). */
export function toContentsResponse(ctx: ContentsLinkContext, f: ContentsEntryFacts): ContentsResponseDto {
  const escaped = escapePathSegments(f.path);
  const self = `${ctx.apiUrl}/contents/${escaped}?${new URLSearchParams({ ref: ctx.ref.input }).toString()}`;
  const isBlob = f.type === 'file' || f.type === 'symlink';
  const isSubmodule = f.type === 'submodule';
  const htmlUrl = isSubmodule ? null : `${ctx.htmlUrl}/src/${refWebLinkPath(ctx.ref)}/${escaped}`;
  const gitUrl = isSubmodule ? null : `${ctx.apiUrl}/git/blobs/${encodeURIComponent(f.sha)}`;
  const hasContent = f.type === 'file' && f.content !== undefined && f.content !== null;
  return {
    name: baseName(f.path),
    path: f.path,
    sha: f.sha,
    last_commit_sha: f.lastCommit?.sha ?? null,
    last_committer_date: f.lastCommit?.committerDate ?? null,
    last_author_date: f.lastCommit?.authorDate ?? null,
    type: f.type,
    size: f.size,
    encoding: hasContent ? 'base64' : null,
    content: hasContent ? f.content! : null,
    target: f.type === 'symlink' ? (f.target ?? null) : null,
    url: self,
    html_url: htmlUrl,
    git_url: gitUrl,
    download_url: isBlob ? `${ctx.htmlUrl}/raw/${refWebLinkPath(ctx.ref)}/${escaped}` : null,
    submodule_git_url: isSubmodule ? (f.submoduleUrl ?? null) : null,
    _links: { self, git: gitUrl, html: htmlUrl },
  };
}
