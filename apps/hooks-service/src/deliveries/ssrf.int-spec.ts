// `[webhook] ALLOWED_HOST_LIST` left at its default (`external`): loopback targets are refused at connect time.
import type { INestMicroservice } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HooksSubjects, RepoEvents, type ActorDto, type HookDto, type HookScopeDto } from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { Receiver, pushEventData, startInfra, startInProcess, waitFor, type Infra } from '../../test/support.js';

const admin: ActorDto = { id: 1, login: 'root', isAdmin: true, scopes: ['all'], hasTwoFactor: false };
const scope: HookScopeDto = { level: 'repo', repo: { id: 7, ownerId: 3, ownerName: 'acme', name: 'repo7', defaultBranch: 'main' }, access: 'admin' };

let infra: Infra;
let app: INestMicroservice;
let rpc: RpcClient;
let receiver: Receiver;

beforeAll(async () => {
  infra = await startInfra('ssrf', { CAIRN__WEBHOOK__ALLOWED_HOST_LIST: '' });
  app = await startInProcess(infra);
  rpc = new RpcClient(infra.natsUrl, 10_000, 'hooks-it');
  await rpc.connect();
  receiver = await new Receiver('k').start();
});

afterAll(async () => {
  await rpc?.close();
  await app?.close();
  await receiver?.stop();
  await infra?.close();
});

describe('ALLOWED_HOST_LIST default (external)', () => {
  it('refuses 127.0.0.1, [::1] and localhost with a clear reason, after one attempt, sending nothing', async () => {
    const port = receiver.port;
    const urls = [
      `http://127.0.0.1:${port}/a`, `http://localhost:${port}/b`, `http://[::ffff:127.0.0.1]:${port}/c`, `http://[::1]:${port}/d`,
    ];
    const hooks: HookDto[] = [];
    for (const url of urls) {
      hooks.push(await rpc.send(HooksSubjects.webhookCreate, {
        actor: admin, scope, body: { type: 'gitea', active: true, config: { url, content_type: 'json' } },
      }));
    }
    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: 7, ownerId: 3 }));
    for (const h of hooks) {
      const [d] = await waitFor(async () => {
        const page = await rpc.send(HooksSubjects.deliveryList, { actor: admin, scope, hookId: h.id, query: {} });
        return page.items[0]?.state === 'failed' ? page.items : null;
      }, `blocked delivery of ${h.config.url}`);
      expect(d.attempts).toBe(1);
      expect(d.status).toMatch(/ALLOWED_HOST_LIST/);
      expect(d.status).toMatch(/127\.0\.0\.1|::1|localhost/);
      const detail = await rpc.send(HooksSubjects.deliveryGet, { actor: admin, scope, hookId: h.id, deliveryId: d.id });
      expect(detail.attempt_log[0]).toMatchObject({ outcome: 'failed', status_code: 0 });
    }
    expect(receiver.requests).toHaveLength(0);
  });
});
