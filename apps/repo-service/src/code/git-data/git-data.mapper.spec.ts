import { describe, expect, it } from 'vitest';
import { escapeSegments, toReferenceDto, toTagDto } from './git-data.mapper.js';

const OID = 'a'.repeat(40);

describe('git data mapper', () => {
  it('escapes each path segment of a ref URL and links the object by its type', () => {
    expect(escapeSegments('refs/tags/a b#1')).toBe('refs/tags/a%20b%231');
    expect(toReferenceDto('refs/tags/v1', OID, 'tag', 'http://h/api/v1/repos/o/r')).toEqual({
      ref: 'refs/tags/v1',
      url: 'http://h/api/v1/repos/o/r/git/refs/tags/v1',
      object: { type: 'tag', sha: OID, url: `http://h/api/v1/repos/o/r/git/tags/${OID}` },
    });
  });

  it('renders Gitea’s Tag with archive links and a trimmed message', () => {
    const dto = toTagDto({ name: 'v1/rc', id: OID, commit: OID, message: ' m\n', created: 'now' }, 'http://h/api', 'http://h/o/r');
    expect(dto).toMatchObject({ message: 'm', zipball_url: 'http://h/o/r/archive/v1%2Frc.zip', tarball_url: 'http://h/o/r/archive/v1%2Frc.tar.gz' });
  });
});
