import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRE_RECEIVE_ENV } from './push-log.js';
import { PreReceiveChecks, type PreReceiveInput } from './pre-receive-checks.js';

const DIR = '/srv/repos/o/r.git';
const seen: PreReceiveInput[] = [];
const checks = new PreReceiveChecks(async (input) => {
  seen.push(input);
  return input.updates.some((u) => u.ref === 'refs/heads/main') ? ['branch main is protected from force push'] : [];
});

async function ask(env: Record<string, string>, body: Record<string, unknown>) {
  const res = await fetch(env[PRE_RECEIVE_ENV.url], { method: 'POST', body: JSON.stringify({ key: env[PRE_RECEIVE_ENV.key], ...body }) });
  return { status: res.status, body: (await res.json()) as { ok: boolean; messages: string[] } };
}

beforeAll(() => checks.listen());
afterAll(() => checks.close());

describe('PreReceiveChecks', () => {
  const update = (ref: string) => ({ ref, old: 'a'.repeat(40), new: 'b'.repeat(40) });

  it('answers for a registered push with the context it was registered with, never one from the request', async () => {
    const { env, release } = await checks.register({ repoId: 7, dir: DIR, pusherId: 3, via: 'ssh' });
    expect(env[PRE_RECEIVE_ENV.node]).toBe(process.execPath);
    const quarantine = `${DIR}/objects/tmp_objdir-incoming-x`;
    const refused = await ask(env, {
      updates: [update('refs/heads/main')], objectDirectory: quarantine, quarantinePath: quarantine,
      alternateObjectDirectories: `${DIR}/objects`, repoId: 99, pusherId: 1,
    });
    expect(refused).toEqual({ status: 200, body: { ok: false, messages: ['branch main is protected from force push'] } });
    expect(seen.at(-1)).toMatchObject({
      context: { repoId: 7, pusherId: 3 },
      env: { GIT_OBJECT_DIRECTORY: quarantine, GIT_QUARANTINE_PATH: quarantine, GIT_ALTERNATE_OBJECT_DIRECTORIES: `${DIR}/objects` },
    });
    expect((await ask(env, { updates: [update('refs/heads/dev')] })).body).toEqual({ ok: true, messages: [] });
    release();
    expect((await ask(env, { updates: [] })).status).toBe(403);
  });

  it('refuses object directories outside the repository', async () => {
    const { env, release } = await checks.register({ repoId: 7, dir: DIR, pusherId: 3, via: 'http' });
    for (const body of [
      { objectDirectory: '/etc' },
      { quarantinePath: `${DIR}/../other.git/objects` },
      { alternateObjectDirectories: `${DIR}/objects:/tmp/evil` },
      { objectDirectory: 'objects' },
    ]) {
      expect((await ask(env, { updates: [], ...body })).status).toBe(400);
    }
    release();
  });

  it('gives no key to a push the check does not apply to', async () => {
    const quiet = new PreReceiveChecks(() => Promise.resolve(['never']), () => Promise.resolve(false));
    await quiet.listen();
    expect((await quiet.register({ repoId: 1, dir: DIR, pusherId: 1, via: 'http' })).env).toEqual({});
    await quiet.close();
  });

  it('refuses an unknown key', async () => {
    const { env, release } = await checks.register({ repoId: 1, dir: DIR, pusherId: 1, via: 'http' });
    release();
    expect((await ask({ ...env, [PRE_RECEIVE_ENV.key]: 'guess' }, { updates: [] })).status).toBe(403);
  });
});
