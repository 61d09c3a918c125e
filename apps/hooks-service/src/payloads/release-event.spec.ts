import { describe, expect, it } from 'vitest';
import { ReleaseEvents, type ReleaseEventData } from '@cairn/contracts';
import { mapDomainEvent } from './event-map.js';

const repository = {
  id: 7, ownerId: 3, ownerName: 'acme', ownerKind: 'organization' as const, name: 'app', fullName: 'acme/app',
  private: false, defaultBranch: 'main', json: { id: 7, name: 'app' },
};
const sender = { id: 1, login: 'alice' } as never;

describe('release events → webhooks', () => {
  it.each(['published', 'updated', 'deleted'] as const)("%s is Gitea's release payload for the repository's hooks", (action) => {
    const release = { id: 12, tag_name: 'v1' } as never;
    const data: ReleaseEventData = { action, release, repository, sender };
    const m = mapDomainEvent(ReleaseEvents[action], data, { rootUrl: 'http://cairn.test/' })!;
    expect(m.repository).toEqual({ id: 7, ownerId: 3 });
    expect(m.specs).toEqual([
      {
        eventType: 'release',
        key: `release:${action}:12`,
        action,
        payload: { action, release, repository: { id: 7, name: 'app' }, sender },
      },
    ]);
  });
});
