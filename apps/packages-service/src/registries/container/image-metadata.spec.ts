import { describe, expect, it } from 'vitest';
import { imageMetadata, indexMetadata } from './image-metadata.js';

describe('container metadata', () => {
  it('reads platform, OCI labels and history from an image config', () => {
    const config = Buffer.from(JSON.stringify({
      os: 'linux', architecture: 'arm', variant: 'v7',
      config: { Labels: {
        'org.opencontainers.image.description': 'tiny', 'org.opencontainers.image.authors': 'a, b',
        'org.opencontainers.image.source': 'https://example.com/r', other: 'x', num: 3,
      } },
      history: [{ created_by: 'COPY x' }, { created_by: 'CMD y', empty_layer: true }, {}],
    }));
    expect(imageMetadata(config, true)).toEqual({
      type: 'oci', is_tagged: true, platform: 'linux/arm/v7', description: 'tiny', authors: ['a', 'b'],
      repository_url: 'https://example.com/r', image_layers: ['COPY x', 'CMD y'],
      labels: {
        'org.opencontainers.image.description': 'tiny', 'org.opencontainers.image.authors': 'a, b',
        'org.opencontainers.image.source': 'https://example.com/r', other: 'x',
      },
    });
  });

  it('a config that is not JSON gives the minimal form; an index lists its manifests', () => {
    expect(imageMetadata(Buffer.from('\x00\x01'), false)).toEqual({ type: 'oci', is_tagged: false });
    expect(imageMetadata(undefined, false)).toEqual({ type: 'oci', is_tagged: false });
    const m = [{ platform: 'linux/amd64', digest: `sha256:${'a'.repeat(64)}`, size: 3 }];
    expect(indexMetadata(m, true)).toEqual({ type: 'oci', is_tagged: true, manifests: m });
  });
});
