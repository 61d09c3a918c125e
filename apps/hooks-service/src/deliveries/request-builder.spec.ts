import { describe, expect, it } from 'vitest';
import { buildDeliveryRequest, type DeliveryRequestInput } from './request-builder.js';
import { signBody } from './signature.js';

const base: DeliveryRequestInput = {
  guid: '6b1c2f8e-0000-4000-8000-000000000001', hookId: 12, type: 'gitea', url: 'https://r.test/hook',
  contentType: 'json', payload: '{"a": "b c&d"}', event: 'issues', eventType: 'issue_assign', secret: 'k',
  authorization: 'Bearer t0k', targetType: 'repository', targetId: 7, userAgent: 'UA/1',
};

describe('delivery request', () => {
  it('json: the payload as body, signed, with Gitea/Gogs/GitHub headers', () => {
    const r = buildDeliveryRequest(base);
    expect(r.method).toBe('POST');
    expect(r.body.toString()).toBe(base.payload);
    expect(r.headers).toMatchObject({
      'Content-Type': 'application/json', 'User-Agent': 'UA/1', Authorization: 'Bearer t0k',
      'X-Gitea-Delivery': base.guid, 'X-GitHub-Delivery': base.guid, 'X-Gogs-Delivery': base.guid,
      'X-Gitea-Event': 'issues', 'X-GitHub-Event': 'issues', 'X-Gitea-Event-Type': 'issue_assign',
      'X-GitHub-Hook-ID': '12', 'X-GitHub-Hook-Installation-Target-Type': 'repository',
      'X-GitHub-Hook-Installation-Target-ID': '7', 'X-Gitea-Hook-Installation-Target-Type': 'repository',
    });
    expect(r.headers['X-Hub-Signature-256']).toBe(`sha256=${signBody('k', r.body).sha256}`);
  });

  it('form: payload=<urlencoded json>, and the signature covers those exact bytes', () => {
    const r = buildDeliveryRequest({ ...base, contentType: 'form' });
    expect(r.headers['Content-Type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(r.body.toString()).get('payload')).toBe(base.payload);
    expect(r.headers['X-Gitea-Signature']).toBe(signBody('k', r.body).sha256);
  });

  it('no secret, no signature; no authorization header, none sent', () => {
    const r = buildDeliveryRequest({ ...base, secret: '', authorization: '' });
    expect(r.headers['X-Hub-Signature-256']).toBeUndefined();
    expect(r.headers.Authorization).toBeUndefined();
  });

  it('matrix: PUT to <url>/<txn id from the guid>', () => {
    const r = buildDeliveryRequest({ ...base, type: 'matrix', url: 'https://m.test/_matrix/client/r0/rooms/x/send/m.room.message/' });
    expect(r.method).toBe('PUT');
    expect(r.url).toBe('https://m.test/_matrix/client/r0/rooms/x/send/m.room.message/6b1c2f8e000040008000000000000001');
  });
});
