import { describe, expect, it } from 'vitest';
import { OciError, ociErrorBody, sizeLimitExceeded } from './oci-errors.js';

describe('OCI error bodies', () => {
  it('carries the code, the status and the spec body', () => {
    const e = new OciError('MANIFEST_BLOB_UNKNOWN', undefined, { digest: 'sha256:x' });
    expect(e.status).toBe(404);
    expect(e.body).toEqual({
      errors: [{ code: 'MANIFEST_BLOB_UNKNOWN', message: e.message, detail: { digest: 'sha256:x' } }],
    });
    expect(ociErrorBody('UNAUTHORIZED')).toEqual({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] });
    expect(new OciError('DENIED').status).toBe(403);
    expect(new OciError('NAME_INVALID', 'bad').body.errors[0].message).toBe('bad');
  });

  it('a size limit is 413 with the limit in the message', () => {
    const e = sizeLimitExceeded('blob', 1024);
    expect([e.status, e.code]).toEqual([413, 'SIZE_INVALID']);
    expect(e.message).toMatch(/1024 bytes/);
  });
});
