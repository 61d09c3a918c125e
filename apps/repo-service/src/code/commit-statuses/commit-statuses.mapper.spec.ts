import { describe, expect, it } from 'vitest';
import { toCommitStatusDto, toPayloadCommit } from './commit-statuses.mapper.js';
import type { CommitStatusRow } from './commit-status-store.repository.js';

const SHA = 'ab'.repeat(20);

describe('toCommitStatusDto (Gitea convert.ToCommitStatus)', () => {
  it('shows the per-commit index as id, second-precision times, updated_at = created_at, the statuses URL', () => {
    const row = {
      id: 99, repoId: 1, sha: SHA, index: 3, state: 'warning', targetUrl: 'https://ci/3', description: 'slow',
      context: 'ci', creatorId: 5, createdAt: new Date('2026-01-02T03:04:05.678Z'), updatedAt: new Date('2026-02-02T00:00:00Z'),
    } satisfies CommitStatusRow;
    const creator = { id: 5, login: 'alice' } as never;
    expect(toCommitStatusDto(row, 'http://h/api/v1/repos/o/r', creator)).toEqual({
      id: 3,
      status: 'warning',
      target_url: 'https://ci/3',
      description: 'slow',
      url: `http://h/api/v1/repos/o/r/statuses/${SHA}`,
      context: 'ci',
      creator,
      created_at: '2026-01-02T03:04:05Z',
      updated_at: '2026-01-02T03:04:05Z',
    });
  });
});

describe('toPayloadCommit (Gitea convert.ToPayloadCommit)', () => {
  it('sorts the changed files into added, removed and modified and names known users', () => {
    const person = (name: string) => ({ name, email: `${name}@x`, date: '2026-01-01T00:00:00Z' });
    const commit = { tree: 't', parents: [], author: person('a'), committer: person('c'), message: 'm\n', signature: null };
    const files = [{ path: 'new', status: 'A' }, { path: 'gone', status: 'D' }, { path: 'changed', status: 'M' }];
    const out = toPayloadCommit(SHA, commit, files, 'http://h/o/r/commit/x', (e) => (e === 'a@x' ? 'alice' : ''));
    expect(out).toEqual({
      id: SHA,
      message: 'm\n',
      url: 'http://h/o/r/commit/x',
      author: { name: 'a', email: 'a@x', username: 'alice' },
      committer: { name: 'c', email: 'c@x', username: '' },
      timestamp: '2026-01-01T00:00:00Z',
      added: ['new'],
      removed: ['gone'],
      modified: ['changed'],
    });
  });
});
