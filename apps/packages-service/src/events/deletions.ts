import { Injectable } from '@nestjs/common';
import { deletedAccountOf, deletedRepositoryIdOf, type DomainEvent } from '@cairn/contracts';
import { DeletionsRepository, type DeletionCounts } from './deletions.repository.js';

export type PackagesDeletion = { kind: 'owner'; ownerId: number } | { kind: 'repository'; repoId: number };

export function deletionOf(event: DomainEvent): PackagesDeletion | null {
  const ownerId = deletedAccountOf(event)?.id;
  if (ownerId !== undefined) return { kind: 'owner', ownerId };
  const repoId = deletedRepositoryIdOf(event);
  return repoId === null ? null : { kind: 'repository', repoId };
}

/** A deleted owner's packages go (the cleanup removes their blobs); a deleted repository's are unlinked, as Gitea. */
@Injectable()
export class PackageDeletions {
  constructor(private readonly rows: DeletionsRepository) {}

  handle(event: DomainEvent): Promise<DeletionCounts | null> {
    const deletion = deletionOf(event);
    if (!deletion) return Promise.resolve(null);
    return this.rows.once(event.id, event.type, (tx) =>
      deletion.kind === 'owner' ? this.rows.removeOwner(tx, deletion.ownerId) : this.rows.unlinkRepository(tx, deletion.repoId),
    );
  }
}
