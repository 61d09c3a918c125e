import { describe, expect, it } from 'vitest';
import { IdentityEvents, RepoEvents, type DomainEvent } from '@cairn/contracts';
import { deletedOwnerId } from './owner-deletions.consumer.js';

const event = (type: string, data: unknown): DomainEvent => ({ id: 'e', type, occurredAt: '2026-01-01T00:00:00Z', data });

describe('deletedOwnerId', () => {
  it('takes the id of a deleted user or organization', () => {
    expect(deletedOwnerId(event(IdentityEvents.userDeleted, { id: 7, login: 'acme', kind: 'organization' }))).toBe(7);
    expect(deletedOwnerId(event(IdentityEvents.userDeleted, { id: 8, login: 'ann', kind: 'user' }))).toBe(8);
  });

  it('ignores other events and malformed ids (never "every owner")', () => {
    expect(deletedOwnerId(event(RepoEvents.repositoryDeleted, { id: 7 }))).toBeNull();
    expect(deletedOwnerId(event(IdentityEvents.tokenRevoked, { id: 7 }))).toBeNull();
    for (const id of [0, -1, 1.5, '7', null, undefined]) {
      expect(deletedOwnerId(event(IdentityEvents.userDeleted, { id }))).toBeNull();
    }
  });
});
