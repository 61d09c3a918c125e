import { describe, expect, it } from 'vitest';
import { formatGitTime, MAX_COMMIT_SIGNATURE_BYTES, parseCommitObject, splitCommitSignature } from './commit-object.js';

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

describe('splitCommitSignature', () => {
  const head = (tree: string) => [`tree ${tree}`, `author A <a@x> 1 +0000`, `committer A <a@x> 1 +0000`];

  it('takes the gpgsig header and its continuation lines out of the payload, unindented', () => {
    const raw = [
      ...head('t'.repeat(40)),
      'gpgsig -----BEGIN SSH SIGNATURE-----',
      ' AAAA',
      ' ',
      ' -----END SSH SIGNATURE-----',
      'mergetag object x',
      ' tagged',
      '',
      'msg',
      ' indented body line',
      '',
    ].join('\n');
    const sig = splitCommitSignature(Buffer.from(raw));
    expect(sig).toEqual({
      tooLarge: false,
      armored: '-----BEGIN SSH SIGNATURE-----\nAAAA\n\n-----END SSH SIGNATURE-----\n',
      payload: Buffer.from([...head('t'.repeat(40)), 'mergetag object x', ' tagged', '', 'msg', ' indented body line', ''].join('\n')),
    });
  });

  it('leaves the other hash\'s signature out of the payload and reads the one of the object\'s hash', () => {
    const sha1 = [...head('t'.repeat(40)), 'gpgsig-sha256 OTHER', ' more', 'gpgsig MINE', '', 'm'].join('\n');
    expect(splitCommitSignature(Buffer.from(sha1))).toMatchObject({ armored: 'MINE\n', payload: Buffer.from([...head('t'.repeat(40)), '', 'm'].join('\n')) });
    const sha256 = [...head('e'.repeat(64)), 'gpgsig OTHER', 'gpgsig-sha256 MINE', '', 'm'].join('\n');
    expect(splitCommitSignature(Buffer.from(sha256))).toMatchObject({ armored: 'MINE\n' });
    // A SHA-1 object with only the other hash's signature is unsigned, as git sees it.
    expect(splitCommitSignature(Buffer.from([...head('t'.repeat(40)), 'gpgsig-sha256 X', '', 'm'].join('\n')))).toBeNull();
  });

  it('never reads a signature larger than the bound', () => {
    const big = ' ' + 'A'.repeat(MAX_COMMIT_SIGNATURE_BYTES);
    const raw = [...head('t'.repeat(40)), 'gpgsig -----BEGIN SSH SIGNATURE-----', big, '', 'm'].join('\n');
    const sig = parseCommitObject(Buffer.from(raw)).signature;
    expect(sig).toMatchObject({ tooLarge: true, armored: '' });
  });

  it('finds nothing in an unsigned commit, and "gpgsig" in the message is only message', () => {
    expect(parseCommitObject(Buffer.from([...head('t'.repeat(40)), '', 'gpgsig x', ''].join('\n'))).signature).toBeNull();
  });
});
