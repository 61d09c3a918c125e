/** Tags and git data (Gitea's `git/*` routes), served by repo-service. */
export const GitDataSubjects = {
  /** List tags, newest first. */
  tagList: 'repo.tag.list',
  /** One tag by name. */
  tagGet: 'repo.tag.get',
  /** Create a lightweight or annotated tag (write access), recorded like a push. */
  tagCreate: 'repo.tag.create',
  /** Delete a tag (write access), recorded like a push. */
  tagDelete: 'repo.tag.delete',
  /** Refs under a prefix. */
  refList: 'repo.git.refs',
  /** An annotated tag object. */
  annotatedTag: 'repo.git.annotated-tag',
  /** A tree, paged. */
  tree: 'repo.git.tree',
  /** A blob, base64 (large content deferred to internal HTTP). */
  blob: 'repo.git.blob',
} as const;
