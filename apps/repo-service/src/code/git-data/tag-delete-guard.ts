/**
 * Asked before a tag is deleted through the API; throws to refuse (releases: a tag with a release is 409, as Gitea).
 * Provided by the module that wires tags (the releases module), so this folder does not depend on releases.
 */
export interface TagDeleteGuard {
  assertTagDeletable(repoId: number, tag: string): Promise<void>;
}

/** The injection token of the {@link TagDeleteGuard}. */
export const TAG_DELETE_GUARD = Symbol('TAG_DELETE_GUARD');
