import { describe, expect, it } from 'vitest';
import { parseTagObject, tagObjectText } from './tag-object.js';

const OID = 'a'.repeat(40);

describe('parseTagObject', () => {
  it('reads the headers, the tagger in its own offset and the message without its signature', () => {
    const raw = Buffer.from(
      `object ${OID}\ntype commit\ntag v1.0\ntagger Ann <ann@example.com> 1706745600 +0200\n\nrelease notes\n` +
        '-----BEGIN SSH SIGNATURE-----\nabc\n-----END SSH SIGNATURE-----\n',
    );
    expect(parseTagObject(raw)).toEqual({
      object: OID,
      type: 'commit',
      tag: 'v1.0',
      tagger: { name: 'Ann', email: 'ann@example.com', date: '2024-02-01T02:00:00+02:00' },
      message: 'release notes',
    });
  });

  it('round-trips what mktag is given', () => {
    const parsed = parseTagObject(Buffer.from(tagObjectText(OID, 'commit', 'x', { name: 'N', email: 'n@e' }, 'msg')));
    expect(parsed).toMatchObject({ object: OID, type: 'commit', tag: 'x', tagger: { name: 'N', email: 'n@e' }, message: 'msg\n' });
  });

  it('has no tagger for a tag object without one', () => {
    expect(parseTagObject(Buffer.from(`object ${OID}\ntype commit\ntag old\n\nm\n`)).tagger).toBeNull();
  });
});
