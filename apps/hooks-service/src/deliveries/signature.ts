import { createHmac } from 'node:crypto';

/** HMACs of the exact body bytes with the hook secret: hex SHA-256 (Gitea) and hex SHA-1 (legacy GitHub). */
export function signBody(secret: string, body: Buffer): { sha256: string; sha1: string } {
  return {
    sha256: createHmac('sha256', secret).update(body).digest('hex'),
    sha1: createHmac('sha1', secret).update(body).digest('hex'),
  };
}

export function signatureHeaders(secret: string, body: Buffer): Record<string, string> {
  if (!secret) return {};
  const { sha256, sha1 } = signBody(secret, body);
  return {
    'X-Gitea-Signature': sha256,
    'X-Gogs-Signature': sha256,
    'X-Hub-Signature': `sha1=${sha1}`,
    'X-Hub-Signature-256': `sha256=${sha256}`,
  };
}
