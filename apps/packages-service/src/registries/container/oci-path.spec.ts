import { describe, expect, it } from 'vitest';
import { parseOciPath } from './oci-path.js';

const D = `sha256:${'f'.repeat(64)}`;

describe('parseOciPath', () => {
  it('recognises every endpoint, names with slashes included', () => {
    expect(parseOciPath('/v2/')).toEqual({ kind: 'base' });
    expect(parseOciPath('/v2/token')).toEqual({ kind: 'token' });
    expect(parseOciPath('/v2/_catalog')).toEqual({ kind: 'catalog' });
    expect(parseOciPath('/v2/alice/app/tags/list')).toEqual({ kind: 'tags', owner: 'alice', image: 'app' });
    expect(parseOciPath('/v2/alice/a/b/manifests/v1')).toEqual({ kind: 'manifest', owner: 'alice', image: 'a/b', reference: 'v1' });
    expect(parseOciPath('/v2/alice/app/blobs/uploads/')).toEqual({ kind: 'uploads', owner: 'alice', image: 'app' });
    expect(parseOciPath('/v2/alice/app/blobs/uploads/abc')).toEqual({ kind: 'uploads', owner: 'alice', image: 'app', uploadId: 'abc' });
    expect(parseOciPath(`/v2/alice/app/blobs/${D}`)).toEqual({ kind: 'blob', owner: 'alice', image: 'app', digest: D });
    expect(parseOciPath(`/v2/alice/app/blobs/${D.replace(':', '%3A')}`)).toMatchObject({ kind: 'blob', digest: D });
    // The last tail wins: an image may itself be called "manifests".
    expect(parseOciPath('/v2/alice/manifests/manifests/v1')).toMatchObject({ image: 'manifests', reference: 'v1' });
  });

  it('unknown paths are undefined; bad names are NAME_INVALID', () => {
    expect(parseOciPath('/v2/alice/app')).toBeUndefined();
    expect(parseOciPath('/v3/alice/app/tags/list')).toBeUndefined();
    expect(parseOciPath('/v2/alice/a%2Fb/tags/list')).toBeUndefined();
    expect(parseOciPath('/v2/alice/a%00/tags/list')).toBeUndefined();
    for (const bad of ['/v2/app/tags/list', '/v2/Alice/app/tags/list', '/v2/alice/../x/tags/list']) {
      expect(() => parseOciPath(bad), bad).toThrow(expect.objectContaining({ code: 'NAME_INVALID' }));
    }
  });
});
