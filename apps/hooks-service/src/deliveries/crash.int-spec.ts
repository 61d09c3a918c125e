// Crash safety: the built service is SIGKILLed mid-burst and restarted; every delivery arrives at least once and
// ends delivered. Then a SIGTERM mid-burst: requests under way finish, the next instance sends the rest exactly once.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HooksSubjects, RepoEvents, type ActorDto, type HookDto, type HookScopeDto } from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';
import { ROOT, Receiver, pushEventData, startChild, startInfra, waitFor, type Infra } from '../../test/support.js';

const SECRET = 'crash-secret';
const admin: ActorDto = { id: 1, login: 'root', isAdmin: true, scopes: ['all'], hasTwoFactor: false };
const SYSTEM_HOOKS = 150;
const REPO_HOOKS = 50;
const REPO = { id: 900, ownerId: 3, ownerName: 'acme', name: 'repo900', defaultBranch: 'main' };

let infra: Infra;
let receiver: Receiver;
let rpc: RpcClient;
let child: ChildProcess | undefined;
const CHILD_ENV = {
  CAIRN__WEBHOOK__DELIVER_CONCURRENCY: '8',
  CAIRN__WEBHOOK__SWEEP_INTERVAL: '2s',
};

beforeAll(async () => {
  execFileSync('npx', ['tsc', '-b', 'apps/hooks-service'], { cwd: ROOT, stdio: 'pipe' });
  infra = await startInfra('crash');
  receiver = await new Receiver(SECRET).start();
  receiver.on('/slow', () => ({ status: 200, delayMs: 150 }));
  rpc = new RpcClient(infra.natsUrl, 10_000, 'hooks-it');
  await rpc.connect();
}, 300_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await rpc?.close();
  await receiver?.stop();
  await infra?.close();
});

function exited(p: ChildProcess): Promise<void> {
  return new Promise((r) => (p.exitCode !== null || p.signalCode !== null ? r() : p.once('exit', () => r())));
}

describe('a crash in the middle of a burst', () => {
  it('loses nothing: every delivery arrives at least once, with one guid per delivery, and is recorded delivered', async () => {
    child = await startChild(infra, CHILD_ENV);
    const create = (scope: HookScopeDto, system: boolean) =>
      rpc.send(HooksSubjects.webhookCreate, {
        actor: admin,
        scope,
        body: {
          type: 'gitea', active: true,
          config: { url: `${receiver.url}/slow`, content_type: 'json', secret: SECRET, is_system_webhook: system },
        },
      });
    const hooks: HookDto[] = [];
    for (let i = 0; i < SYSTEM_HOOKS; i++) hooks.push(await create({ level: 'admin' }, true));
    for (let i = 0; i < REPO_HOOKS; i++) hooks.push(await create({ level: 'repo', repo: REPO, access: 'admin' }, false));

    await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: REPO.id, ownerId: REPO.ownerId, name: REPO.name }));
    await waitFor(() => receiver.at('/slow').length >= 40, 'the burst to be under way', 60_000);
    child.kill('SIGKILL');
    await exited(child);
    const beforeRestart = receiver.at('/slow').length;
    expect(beforeRestart).toBeLessThan(hooks.length);

    // Deliveries committed just before the crash, never enqueued: the sweeper must find them — one outside any
    // event (its own job) and one of an event (its first attempt goes in the event's group job).
    await infra.sql(
      `INSERT INTO hook_deliveries (guid, hook_id, repo_id, event, event_type, payload, updated_at)
       VALUES ($1, $2, $3, 'push', 'push', '{"orphan":true}', now())`,
      [randomUUID(), hooks[0].id, REPO.id],
    );
    await infra.sql(
      `INSERT INTO hook_deliveries (guid, hook_id, repo_id, event_id, event_key, event, event_type, payload, updated_at)
       VALUES ($1, $2, $3, $4, 'push', 'push', 'push', '{"orphan":"of an event"}', now())`,
      [randomUUID(), hooks[1].id, REPO.id, randomUUID()],
    );

    child = await startChild(infra, CHILD_ENV);
    const rows = await waitFor(async () => {
      const r = await infra.sql<{ guid: string; status: string; attempts: number; payload: string }>(
        'SELECT guid, status, attempts, payload FROM hook_deliveries ORDER BY id',
      );
      return r.length === hooks.length + 2 && r.every((d) => d.status === 'delivered') ? r : null;
    }, 'every delivery to be recorded delivered', 150_000, 250);

    const received = receiver.at('/slow');
    const byGuid = new Map<string, string[]>();
    for (const req of received) {
      expect(req.octokitValid && req.hmacValid).toBe(true);
      const guid = String(req.headers['x-gitea-delivery']);
      byGuid.set(guid, [...(byGuid.get(guid) ?? []), req.body]);
    }
    // One delivery per hook, every one of them received; a repeat is the same delivery (guid) with the same body.
    expect(new Set(rows.map((r) => r.guid))).toEqual(new Set(byGuid.keys()));
    for (const row of rows) {
      const bodies = byGuid.get(row.guid)!;
      expect(new Set(bodies).size).toBe(1);
      expect(bodies[0]).toBe(row.payload);
    }
    const attempts = await infra.sql<{ n: number }>('SELECT count(*)::int AS n FROM hook_delivery_attempts');
    expect(attempts[0].n).toBeGreaterThanOrEqual(rows.length);
    const repeats = received.length - byGuid.size;
    console.log(
      `crash test: ${rows.length} deliveries, ${beforeRestart} requests before the kill, ` +
        `${received.length} requests in all (${repeats} repeated after the crash)`,
    );
  }, 300_000);

  it('a graceful stop starts nothing new: the next instance sends the rest, each delivery exactly once', async () => {
    await infra.sql('UPDATE webhooks SET is_active = false');
    const repo = { ...REPO, id: 901, name: 'repo901' };
    receiver.on('/graceful', () => ({ status: 200, delayMs: 1_000 }));
    child = await startChild(infra, CHILD_ENV);
    const hooks: HookDto[] = [];
    for (let i = 0; i < 200; i++) {
      hooks.push(await rpc.send(HooksSubjects.webhookCreate, {
        actor: admin,
        scope: { level: 'repo', repo, access: 'admin' },
        body: { type: 'gitea', active: true, config: { url: `${receiver.url}/graceful`, content_type: 'json', secret: SECRET } },
      }));
    }
    const event = await infra.publish(RepoEvents.pushReceived, pushEventData({ repoId: repo.id, ownerId: repo.ownerId, name: repo.name }));
    await waitFor(() => receiver.at('/graceful').length >= 24, 'the burst to be under way', 60_000);
    const atStop = receiver.at('/graceful').length;
    const stopping = child;
    stopping.kill('SIGTERM');
    await exited(stopping);
    expect(stopping.exitCode).toBe(0);
    // After the stop only attempts under way (at most DELIVER_CONCURRENCY = 8, plus those starting before the signal
    // is handled) may reach the receiver: far fewer than the 64 deliveries of the jobs it held.
    const afterStop = receiver.at('/graceful').length - atStop;
    expect(afterStop).toBeLessThanOrEqual(24);
    expect(receiver.at('/graceful').length).toBeLessThan(hooks.length);

    child = await startChild(infra, CHILD_ENV);
    const rows = await waitFor(async () => {
      const r = await infra.sql<{ guid: string; status: string; attempts: number }>(
        'SELECT guid, status, attempts FROM hook_deliveries WHERE event_id = $1',
        [event.id],
      );
      return r.length === hooks.length && r.every((d) => d.status === 'delivered') ? r : null;
    }, 'every delivery to be recorded delivered', 150_000, 250);
    const received = receiver.at('/graceful');
    expect(received.every((req) => req.octokitValid && req.hmacValid)).toBe(true);
    expect(received.map((req) => String(req.headers['x-gitea-delivery'])).sort()).toEqual(rows.map((r) => r.guid).sort());
    expect(rows.every((r) => r.attempts === 1)).toBe(true);
    console.log(`graceful stop: ${atStop} requests when stopped, ${afterStop} more before it exited, ${received.length} in all`);
  }, 300_000);
});
