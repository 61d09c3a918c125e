// The OCI layouts the e2e tests push are valid for skopeo: it reads and copies them byte for byte.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildImageLayout, buildIndexLayout, layoutEntry, readLayoutBlob, skopeo, skopeoAvailable,
} from '../../../../../test/support/oci-layout.js';

const available = skopeoAvailable();
if (!available) console.warn('\n!!! skopeo is not installed: the OCI layout checks are SKIPPED (apt-get install skopeo)\n');
const root = mkdtempSync(path.join(tmpdir(), 'cairn-oci-layout-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(!available)('OCI layout harness with skopeo', () => {
  it('skopeo inspects the single-platform image and copies it byte for byte', async () => {
    const src = path.join(root, 'img');
    const image = buildImageLayout(src, 'v1');
    const inspect = await skopeo(['inspect', `oci:${src}:v1`]);
    expect(inspect.stderr).toBe('');
    expect(JSON.parse(inspect.stdout)).toMatchObject({
      Digest: image.manifest.digest,
      Architecture: 'amd64',
      Os: 'linux',
      Layers: image.layers.map((l) => l.digest),
    });
    const dst = path.join(root, 'img-copy');
    const copy = await skopeo(['copy', `oci:${src}:v1`, `oci:${dst}:again`]);
    expect(copy.code, copy.stderr).toBe(0);
    expect(layoutEntry(dst, 'again')?.digest).toBe(image.manifest.digest);
    for (const d of [image.manifest, image.config, ...image.layers]) {
      expect(readLayoutBlob(dst, d.digest).equals(readLayoutBlob(src, d.digest))).toBe(true);
    }
  });

  it('skopeo copies the two-platform index with --all', async () => {
    const src = path.join(root, 'idx');
    const built = buildIndexLayout(src, 'multi');
    const raw = await skopeo(['inspect', '--raw', `oci:${src}:multi`]);
    expect(Buffer.from(raw.stdout).equals(built.indexBytes)).toBe(true);
    const dst = path.join(root, 'idx-copy');
    const copy = await skopeo(['copy', '--all', `oci:${src}:multi`, `oci:${dst}:multi`]);
    expect(copy.code, copy.stderr).toBe(0);
    expect(layoutEntry(dst, 'multi')?.digest).toBe(built.index.digest);
    for (const img of built.images) {
      expect(readLayoutBlob(dst, img.manifest.digest).equals(img.manifestBytes)).toBe(true);
      for (const l of img.layers) expect(readLayoutBlob(dst, l.digest).equals(readLayoutBlob(src, l.digest))).toBe(true);
    }
  });
});
