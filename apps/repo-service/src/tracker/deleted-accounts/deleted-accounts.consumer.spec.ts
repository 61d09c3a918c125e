import { IdentityEvents, type DomainEvent } from '@cairn/contracts';
import { describe, expect, it } from 'vitest';
import { deletedUserId } from './deleted-accounts.consumer.js';

const event = (type: string, data: unknown) => ({ id: 'e1', type, data, occurredAt: '2026-01-01T00:00:00Z' }) as unknown as DomainEvent;

describe('deletedUserId', () => {
  it('is the id of a deleted user', () => {
    expect(deletedUserId(event(IdentityEvents.userDeleted, { id: 8, login: 'ann', kind: 'user' }))).toBe(8);
  });
  it('is null for organizations, other events and malformed ids', () => {
    expect(deletedUserId(event(IdentityEvents.userDeleted, { id: 7, login: 'acme', kind: 'organization' }))).toBeNull();
    expect(deletedUserId(event(IdentityEvents.userCreated, { id: 9 }))).toBeNull();
    for (const id of [0, -1, 1.5, '3', null]) expect(deletedUserId(event(IdentityEvents.userDeleted, { id }))).toBeNull();
  });
});
