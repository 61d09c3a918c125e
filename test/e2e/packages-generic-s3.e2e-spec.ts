// packages-generic.e2e-spec.ts again, every blob on a real MinIO server (`[storage] STORAGE_TYPE = minio`): the
// registry behaves the same on both backends.
import { afterAll, expect } from 'vitest';
import { minioMissing, packageBlobsInMinio } from '../support/minio.js';

process.env.CAIRN_E2E_STORAGE = 'minio';
if (!minioMissing()) {
  await import('./packages-generic.e2e-spec.js');
  afterAll(async () => {
    expect(await packageBlobsInMinio(), 'blobs stored in MinIO').toBeGreaterThan(0);
  });
}
