import { describe, expect, it } from 'vitest';
import { splitSignedCommit } from './instance-signature.js';

const header = 'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1700000000 +0000\ncommitter A <a@x> 1700000000 +0000\n';

describe('splitSignedCommit', () => {
  it('separates the gpgsig header (with its continuation lines) from the payload it signs', () => {
    const raw = Buffer.from(
      `${header}gpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lH\n \n -----END SSH SIGNATURE-----\n\nmessage\n\nbody ü\n`,
    );
    expect(splitSignedCommit(raw)).toEqual({
      signature: '-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n\n-----END SSH SIGNATURE-----\n',
      payload: Buffer.from(`${header}\nmessage\n\nbody ü\n`),
    });
  });

  it('is null for an unsigned commit', () => {
    expect(splitSignedCommit(Buffer.from(`${header}\nmessage\n`))).toBeNull();
  });

  it('does not read a gpgsig line of the message as a signature', () => {
    expect(splitSignedCommit(Buffer.from(`${header}\ngpgsig in the message\n`))).toBeNull();
  });
});
