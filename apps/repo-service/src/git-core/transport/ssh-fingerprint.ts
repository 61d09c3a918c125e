import { createHash } from 'node:crypto';

/** `SHA256:…` as `ssh-keygen -l` prints it and identity-service stores it: deploy keys are matched by it. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}
