import { describe, expect, it } from 'vitest';
import { OciError } from './oci-errors.js';
import { MAX_MANIFEST_BYTES, MediaTypes, parseManifest } from './oci-manifest.js';

const d = (c: string, size = 10, mediaType = 'application/vnd.oci.image.layer.v1.tar+gzip') => ({
  mediaType,
  digest: `sha256:${c.repeat(64)}`,
  size,
});
const image = {
  schemaVersion: 2,
  mediaType: MediaTypes.ociManifest,
  config: d('c', 5, 'application/vnd.oci.image.config.v1+json'),
  layers: [d('1'), d('2', 0)],
};
const buf = (v: unknown) => Buffer.from(JSON.stringify(v));

function error(fn: () => unknown): OciError {
  try {
    fn();
  } catch (e) {
    if (e instanceof OciError) return e;
    throw e;
  }
  throw new Error('expected an OciError');
}

describe('parseManifest', () => {
  it('parses an image manifest with its config and layers', () => {
    const m = parseManifest(buf(image), MediaTypes.ociManifest);
    expect(m).toEqual({ kind: 'image', mediaType: MediaTypes.ociManifest, config: image.config, layers: image.layers });
  });

  it('takes the media type from the body when Content-Type is not a manifest type, or infers it (OCI 1.0)', () => {
    expect(parseManifest(buf(image), 'application/octet-stream').kind).toBe('image');
    const { mediaType: _ignored, ...bare } = image;
    expect(parseManifest(buf(bare), undefined).mediaType).toBe(MediaTypes.ociManifest);
    const docker = { ...image, mediaType: MediaTypes.dockerManifest };
    expect(parseManifest(buf(docker), `${MediaTypes.dockerManifest}; charset=utf-8`).mediaType).toBe(MediaTypes.dockerManifest);
  });

  it('parses an image index with platforms (default as Gitea)', () => {
    const index = {
      schemaVersion: 2,
      mediaType: MediaTypes.ociIndex,
      manifests: [
        { ...d('a', 100, MediaTypes.ociManifest), platform: { os: 'linux', architecture: 'arm64', variant: 'v8' } },
        { ...d('b', 200, MediaTypes.ociManifest) },
      ],
    };
    const m = parseManifest(buf(index), MediaTypes.ociIndex);
    expect(m.kind).toBe('index');
    expect(m.kind === 'index' && m.manifests.map((e) => e.platform)).toEqual(['linux/arm64/v8', 'linux/amd64']);
  });

  it('refuses malformed manifests with MANIFEST_INVALID and a reason', () => {
    const cases: [unknown, string | undefined, RegExp][] = [
      ['not json', undefined, /not valid JSON/],
      [[], undefined, /JSON object/],
      [{ ...image, schemaVersion: 1 }, undefined, /schemaVersion must be 2/],
      [image, MediaTypes.ociIndex, /does not match/],
      [{ ...image, config: undefined }, MediaTypes.ociManifest, /config descriptor is missing/],
      [{ ...image, layers: {} }, MediaTypes.ociManifest, /layers must be an array/],
      [{ ...image, layers: [{ ...d('1'), size: -1 }] }, undefined, /layers\[0\]\.size/],
      [{ ...image, layers: [{ ...d('1'), size: 1.5 }] }, undefined, /layers\[0\]\.size/],
      [{ ...image, layers: [{ digest: d('1').digest, size: 1 }] }, undefined, /layers\[0\]\.mediaType/],
      [{ schemaVersion: 2, mediaType: 'application/vnd.foo' }, undefined, /not an image manifest or image index/],
      [{ schemaVersion: 2, mediaType: MediaTypes.ociIndex, manifests: [d('a', 1, MediaTypes.ociIndex)] }, undefined, /expected an image manifest/],
    ];
    for (const [doc, type, message] of cases) {
      const e = error(() => parseManifest(typeof doc === 'string' ? Buffer.from(doc) : buf(doc), type));
      expect(e.code, String(message)).toBe('MANIFEST_INVALID');
      expect(e.status).toBe(400);
      expect(e.message).toMatch(message);
    }
  });

  it('a bad digest in a descriptor is DIGEST_INVALID; an oversized manifest 413', () => {
    const e = error(() => parseManifest(buf({ ...image, layers: [{ ...d('1'), digest: 'sha256:../x' }] }), undefined));
    expect(e.code).toBe('DIGEST_INVALID');
    expect(e.message).toMatch(/layers\[0\]/);
    const big = error(() => parseManifest(Buffer.alloc(MAX_MANIFEST_BYTES + 1, 32), undefined));
    expect([big.code, big.status]).toEqual(['MANIFEST_INVALID', 413]);
  });
});
