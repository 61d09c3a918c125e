import { Injectable } from '@nestjs/common';
import { deletedAccountOf, deletedRepositoryIdOf, type DomainEvent } from '@cairn/contracts';
import { DeletionsRepository, type DeletionCounts } from './deletions.repository.js';

/** What a deletion event means for packages, or null for events this service does not act on. */
export type PackagesDeletion = { kind: 'owner'; ownerId: number } | { kind: 'repository'; repoId: number };

export function deletionOf(event: DomainEvent): PackagesDeletion | null {
  const ownerId = deletedAccountOf(event)?.id;
  if (ownerId !== undefined) return { kind: 'owner', ownerId };
  const repoId = deletedRepositoryIdOf(event);
  return repoId === null ? null : { kind: 'repository', repoId };
}

/**
 * The packages side of owner and repository deletions, once per event: a deleted user's or organization's packages
 * go (their blobs become unreferenced and the blob cleanup removes them); a deleted repository's packages are
 * unlinked, as in Gitea.
 */
@Injectable()
export class PackageDeletions {
  constructor(private readonly rows: DeletionsRepository) {}

  /** Null when the event was handled before or is not a deletion packages care about. */
  handle(event: DomainEvent): Promise<DeletionCounts | null> {
    const deletion = deletionOf(event);
    if (!deletion) return Promise.resolve(null);
    return this.rows.once(event.id, event.type, (tx) =>
      deletion.kind === 'owner' ? this.rows.removeOwner(tx, deletion.ownerId) : this.rows.unlinkRepository(tx, deletion.repoId),
    );
  }
}
