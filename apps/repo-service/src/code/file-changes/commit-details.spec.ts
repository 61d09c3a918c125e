import { describe, expect, it } from 'vitest';
import { commitDates, commitIdentities, commitMessage, defaultCommitMessage, gitDate } from './commit-details.js';

const doer = { name: 'Alice Liddell', email: 'alice@example.com' };

describe('commit details of a files change (Gitea’s rules)', () => {
  it('writes the default message per kind of operation', () => {
    expect(defaultCommitMessage([{ operation: 'create', path: 'a' }])).toBe('Add a');
    expect(
      defaultCommitMessage([
        { operation: 'delete', path: 'd' },
        { operation: 'create', path: 'a' },
        { operation: 'upload', path: 'u' },
        { operation: 'rename', path: 'r' },
        { operation: 'create', path: 'b' },
      ]),
    ).toBe('Add a, b\nUpdate u, r\nDelete d');
  });

  it('trims the message, ends it with a newline and adds the committer’s sign-off when asked', () => {
    expect(commitMessage('  hi \n', false, doer)).toBe('hi\n');
    expect(commitMessage('hi', true, { name: 'Anne', email: 'anne@example.com' })).toBe('hi\n\nSigned-off-by: Anne <anne@example.com>\n');
  });

  it('turns RFC 3339 dates into git dates with their offset, and names the one that is not RFC 3339', () => {
    expect(gitDate('2016-01-01T00:00:00+02:00')).toBe('@1451599200 +0200');
    expect(gitDate('2017-03-04T05:06:07Z')).toBe('@1488603967 +0000');
    // Go's zero time is "not given" (Gitea's IsZero; the Go SDK sends it for unset dates)
    expect(gitDate('0001-01-01T00:00:00Z')).toBeUndefined();
    expect(gitDate('2017-03-04T05:06:07.5-03:30')).toBe('@1488616567 -0330');
    expect(gitDate(undefined)).toBeUndefined();
    expect(gitDate('yesterday')).toBeNull();
    expect(commitDates({ author: '2017-03-04T05:06:07Z', committer: '2017-13-04T05:06:07Z' })).toEqual({ invalid: 'dates.committer' });
    expect(commitDates(undefined)).toEqual({ author: undefined, committer: undefined });
  });

  it('picks author and committer: as given, one for both, the doer when none (renamed when its own e-mail is given)', () => {
    const ann = { name: 'Ann', email: 'ann@example.com' };
    const bob = { name: 'Bob', email: 'bob@example.com' };
    expect(commitIdentities(ann, bob, doer)).toEqual({ author: ann, committer: bob });
    expect(commitIdentities(ann, undefined, doer)).toEqual({ author: ann, committer: ann });
    expect(commitIdentities(undefined, bob, doer)).toEqual({ author: bob, committer: bob });
    expect(commitIdentities(undefined, undefined, doer)).toEqual({ author: doer, committer: doer });
    expect(commitIdentities({ name: 'Nobody' }, undefined, doer)).toEqual({ author: doer, committer: doer });
    expect(commitIdentities({ name: 'Al', email: 'ALICE@example.com' }, undefined, doer).author).toEqual({ name: 'Al', email: 'alice@example.com' });
  });
});
