import { describe, expect, it } from 'vitest';
import { signedCommitParts, type CommitSigning } from './commit-signing.js';

const alice = { name: 'Alice', email: 'alice@example.com' };
const bob = { name: 'Bob', email: 'bob@example.com' };
const signing: CommitSigning = { format: 'ssh', key: '/keys/instance.pub', signer: { name: 'gitea', email: 'gitea@fake.local' } };

describe('signedCommitParts', () => {
  it('keeps committer and message when unsigned, or signed under the collaborator trust model', () => {
    expect(signedCommitParts(null, alice, bob, 'msg\n')).toEqual({ committer: bob, message: 'msg\n' });
    expect(signedCommitParts(signing, alice, bob, 'msg\n')).toEqual({ committer: bob, message: 'msg\n' });
  });

  it('makes the signer the committer under the committer trust models', () => {
    const parts = signedCommitParts({ ...signing, committerIsSigner: true }, alice, bob, 'Merge\n');
    expect(parts).toEqual({ committer: { name: 'gitea', email: 'gitea@fake.local' }, message: 'Merge\n' });
  });

  it('keeps a file change\'s own committer as Co-authored-by/Co-committed-by trailers when not its author', () => {
    const crud = { ...signing, committerIsSigner: true, coAuthorTrailers: true };
    expect(signedCommitParts(crud, alice, bob, 'Update README.md').message).toBe(
      'Update README.md\n\nCo-authored-by: Bob <bob@example.com>\nCo-committed-by: Bob <bob@example.com>\n',
    );
    expect(signedCommitParts(crud, alice, alice, 'Update README.md\n').message).toBe('Update README.md\n');
  });
});
