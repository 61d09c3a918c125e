/** NATS request-reply subjects for tags and git data (Gitea's `git/*` routes), served by repo-service. */
export const GitDataSubjects = {
  /** List tags, newest first: `ListTagsRequest` → `Paginated<TagDto>`. */
  tagList: 'repo.tag.list',
  /** One tag by name: `TagNameRequest` → `TagDto`. */
  tagGet: 'repo.tag.get',
  /** Create a lightweight or annotated tag (write access), recorded like a push: `CreateTagRequest` → `TagDto`. */
  tagCreate: 'repo.tag.create',
  /** Delete a tag (write access), recorded like a push: `TagNameRequest` → `null`. */
  tagDelete: 'repo.tag.delete',
  /** Refs under a prefix: `ListGitRefsRequest` → `ReferenceDto[]`. */
  refList: 'repo.git.refs',
  /** An annotated tag object: `GitObjectRequest` → `AnnotatedTagDto`. */
  annotatedTag: 'repo.git.annotated-tag',
  /** A tree, paged: `GetTreeRequest` → `GitTreeResponseDto`. */
  tree: 'repo.git.tree',
  /** A blob, base64 (large content deferred to internal HTTP): `GetBlobRequest` → `GetBlobReply`. */
  blob: 'repo.git.blob',
} as const;
