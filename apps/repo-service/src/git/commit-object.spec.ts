import { describe, expect, it } from 'vitest';
import { formatGitTime, parseCommitObject } from './commit-object.js';

describe('parseCommitObject', () => {
  it('reads tree, parents, people and the message, skipping signature headers', () => {
    const raw = [
      `tree ${'t'.repeat(40)}`,
      `parent ${'a'.repeat(40)}`,
      `parent ${'b'.repeat(40)}`,
      'author Ann Author <ann@example.com> 1704207845 +0200',
      'committer <noname@example.com> 1704207845 -0000',
      'gpgsig -----BEGIN SSH SIGNATURE-----',
      ' U1NIU0lH',
      ' -----END SSH SIGNATURE-----',
      '',
      'subject',
      '',
      'body\n',
    ].join('\n');
    const c = parseCommitObject(Buffer.from(raw));
    expect(c.tree).toBe('t'.repeat(40));
    expect(c.parents).toEqual(['a'.repeat(40), 'b'.repeat(40)]);
    expect(c.author).toEqual({ name: 'Ann Author', email: 'ann@example.com', date: '2024-01-02T17:04:05+02:00' });
    expect(c.committer).toEqual({ name: '', email: 'noname@example.com', date: '2024-01-02T15:04:05Z' });
    expect(c.message).toBe('subject\n\nbody\n');
  });
});

describe('formatGitTime', () => {
  it('renders the instant in the commit offset', () => {
    expect(formatGitTime(0, '+0000')).toBe('1970-01-01T00:00:00Z');
    expect(formatGitTime(1704207845, '-0530')).toBe('2024-01-02T09:34:05-05:30');
  });
});
