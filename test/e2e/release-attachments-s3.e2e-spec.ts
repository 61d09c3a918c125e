// release-attachments.e2e-spec.ts again, every attachment blob on a real MinIO server (`[storage] STORAGE_TYPE =
// minio`): uploads, ranges, deletions and the size limit behave the same on both backends.
import { expect, it } from 'vitest';
import { minioMissing, theRunningMinio } from '../support/minio.js';

process.env.CAIRN_E2E_STORAGE = 'minio';
if (!minioMissing()) {
  await import('./release-attachments.e2e-spec.js');
  // After the file's tests (its suite still running): the blobs it kept are objects in the suite's bucket.
  it('kept the attachment blobs in MinIO, under [storage.attachments]’ prefix', async () => {
    expect(await theRunningMinio().objectCount('cairn', 'attachments/blobs/')).toBeGreaterThan(0);
    expect(await theRunningMinio().objectCount('cairn', 'packages/blobs/')).toBe(0);
  });
}
