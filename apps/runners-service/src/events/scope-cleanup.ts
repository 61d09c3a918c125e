import { Injectable } from '@nestjs/common';
import { deletedAccountOf, deletedRepositoryIdOf, type DomainEvent } from '@cairn/contracts';
import type { ScopeKey } from '../actions/actions-scope.js';
import { ScopeDataRepository, type CleanupCounts } from './scope-data.repository.js';

/** The scope whose Actions data a deletion event removes, or null for events this service does not act on. */
export function deletedScope(event: DomainEvent): ScopeKey | null {
  const ownerId = deletedAccountOf(event)?.id;
  if (ownerId !== undefined) return { ownerId, repoId: 0 };
  const repoId = deletedRepositoryIdOf(event);
  return repoId === null ? null : { ownerId: 0, repoId };
}

@Injectable()
export class ScopeCleanup {
  constructor(private readonly rows: ScopeDataRepository) {}

  /** Null when the event was handled before (or is not a deletion this service acts on). */
  handle(event: DomainEvent): Promise<CleanupCounts | null> {
    const scope = deletedScope(event);
    return scope ? this.rows.removeOnce(event.id, event.type, scope) : Promise.resolve(null);
  }
}
