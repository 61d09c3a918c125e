/** Refuses a tag deletion (a tag with a release is 409, as Gitea); bound by releases: tags do not import them. */
export interface TagDeleteGuard {
  assertTagDeletable(repoId: number, tag: string): Promise<void>;
}

export const TAG_DELETE_GUARD = Symbol('TAG_DELETE_GUARD');
