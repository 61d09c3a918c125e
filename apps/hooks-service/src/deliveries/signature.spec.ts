import { createHmac } from 'node:crypto';
import { verify } from '@octokit/webhooks-methods';
import { describe, expect, it } from 'vitest';
import { signatureHeaders, signBody } from './signature.js';

describe('delivery signatures', () => {
  const body = Buffer.from('{"ref":"refs/heads/main","é":"ü"}', 'utf8');

  it('are HMAC-SHA256 and HMAC-SHA1 of the exact body bytes', () => {
    const { sha256, sha1 } = signBody('s3cret', body);
    expect(sha256).toBe(createHmac('sha256', 's3cret').update(body).digest('hex'));
    expect(sha1).toBe(createHmac('sha1', 's3cret').update(body).digest('hex'));
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('carry Gitea, Gogs and GitHub headers that GitHub tooling verifies', async () => {
    const h = signatureHeaders('s3cret', body);
    expect(h['X-Gitea-Signature']).toBe(h['X-Gogs-Signature']);
    expect(h['X-Hub-Signature-256']).toBe(`sha256=${h['X-Gitea-Signature']}`);
    expect(h['X-Hub-Signature']).toMatch(/^sha1=[0-9a-f]{40}$/);
    expect(await verify('s3cret', body.toString('utf8'), h['X-Hub-Signature-256'])).toBe(true);
    expect(await verify('other', body.toString('utf8'), h['X-Hub-Signature-256'])).toBe(false);
  });

  it('are absent without a secret', () => {
    expect(signatureHeaders('', body)).toEqual({});
  });
});
