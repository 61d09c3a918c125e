import { describe, expect, it } from 'vitest';
import { trustStatus, type TrustParty } from './trust-status.js';

const instance: TrustParty = { id: 0, email: 'cairn@instance.test' };
const ann: TrustParty = { id: 7, email: 'ann@example.com' };
const bob: TrustParty = { id: 9, email: 'bob@example.com' };
const outsider: TrustParty = { id: 0, email: 'who@elsewhere.test' };
const member = (...ids: number[]) => (id: number) => ids.includes(id);

describe('trustStatus (Gitea CalculateTrustStatus)', () => {
  it.each([
    // model, signer, committer, collaborators, expected
    ['committer', ann, ann, member(), 'trusted'],
    ['committer', ann, bob, member(7, 9), 'unmatched'],
    ['committer', instance, { id: 0, email: instance.email }, member(), 'trusted'],
    ['committer', instance, ann, member(), 'unmatched'],
    ['collaborator', instance, ann, member(), 'trusted'],
    ['collaborator', ann, ann, member(7), 'trusted'],
    ['collaborator', ann, ann, member(), 'untrusted'],
    ['collaborator', ann, bob, member(), 'unmatched'],
    ['collaborator', ann, bob, member(7), 'trusted'],
    ['collaboratorcommitter', ann, ann, member(7), 'trusted'],
    ['collaboratorcommitter', ann, bob, member(7), 'unmatched'],
    ['collaboratorcommitter', ann, ann, member(), 'untrusted'],
    ['collaboratorcommitter', instance, ann, member(), 'untrusted'],
    ['collaboratorcommitter', instance, outsider, member(), 'untrusted'],
    ['collaboratorcommitter', instance, { id: 0, email: instance.email }, member(), 'trusted'],
  ] as const)('%s: signer %j, committer %j → %s', (model, signer, committer, isCollaborator, expected) => {
    expect(trustStatus(model, signer, committer, isCollaborator)).toBe(expected);
  });
});
