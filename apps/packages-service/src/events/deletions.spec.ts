import { describe, expect, it } from 'vitest';
import { IdentityEvents, RepoEvents, type DomainEvent } from '@cairn/contracts';
import { deletionOf } from './deletions.js';

const event = (type: string, data: unknown): DomainEvent => ({ id: 'e', type, occurredAt: '', data });

describe('deletionOf', () => {
  it('a deleted user or organization removes its packages; a deleted repository unlinks', () => {
    expect(deletionOf(event(IdentityEvents.userDeleted, { id: 7, login: 'acme', kind: 'organization' }))).toEqual({ kind: 'owner', ownerId: 7 });
    expect(deletionOf(event(RepoEvents.repositoryDeleted, { repository: { id: 3 }, sender: null }))).toEqual({ kind: 'repository', repoId: 3 });
  });

  it('ignores other events and malformed ids', () => {
    expect(deletionOf(event(RepoEvents.repositoryCreated, { repository: { id: 3 } }))).toBeNull();
    expect(deletionOf(event(IdentityEvents.userDeleted, { id: 0 }))).toBeNull();
    expect(deletionOf(event(IdentityEvents.userDeleted, { id: '7' }))).toBeNull();
    expect(deletionOf(event(RepoEvents.repositoryDeleted, {}))).toBeNull();
  });
});
