// packages-container.e2e-spec.ts again with every blob on a real MinIO server (`[storage] STORAGE_TYPE = minio`):
// skopeo's pushes and pulls, chunked and monolithic uploads, mounts and serving; the tests of tokens and permissions,
// which store nothing new, run on local storage only.
import { afterAll, expect } from 'vitest';
import { minioMissing, packageBlobsInMinio } from '../support/minio.js';

process.env.CAIRN_E2E_STORAGE = 'minio';
if (!minioMissing()) {
  await import('./packages-container.e2e-spec.js');
  afterAll(async () => {
    expect(await packageBlobsInMinio(), 'blobs stored in MinIO').toBeGreaterThan(0);
  });
}
