// The container image's entry point (scripts/cairn-app.mjs): the app chosen by argument runs in that process —
// started from its build, stopped cleanly by SIGTERM — and `migrate` applies a service's migrations. Against the real
// PostgreSQL, a private NATS and Redis, with the built apps (`npm run build`).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, freePort, startPrivateNats, type PrivateNats, type ScratchDatabase } from '../../test/support/integration.js';
import { waitFor } from '../../test/support/wait.js';
// @ts-ignore — plain ESM JavaScript without type declarations
import { status } from '../../tools/migrate/index.mjs';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const ENTRY = path.join(REPO_ROOT, 'scripts', 'cairn-app.mjs');

function entry(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, [ENTRY, ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
}

describe('scripts/cairn-app.mjs', () => {
  let db: ScratchDatabase;
  let nats: PrivateNats;
  beforeAll(async () => {
    if (!existsSync(path.join(REPO_ROOT, 'apps', 'identity-service', 'dist', 'main.js'))) {
      throw new Error('apps/identity-service is not built: run `npm run build` first');
    }
    db = await createScratchDatabase('image', { services: [] });
    nats = await startPrivateNats();
  });
  afterAll(async () => {
    await nats?.stop();
    await db?.drop();
  });

  it('refuses an unknown app with usage 64, naming the apps it has', () => {
    const r = entry(['no-such-app']);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('unknown app or extra arguments: no-such-app');
    expect(r.stderr).toMatch(/apps: .*identity-service/);
    expect(entry(['identity-service', 'extra']).status).toBe(64);
  });

  it('`migrate --service <name>` applies that service’s pending migrations', async () => {
    const r = entry(['migrate', '--service', 'identity'], { DATABASE_URL: db.url });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const after = await status({ databaseUrl: db.url, service: 'identity' });
    expect(after.ok).toBe(true);
    expect(after.services[0].pending).toEqual([]);
    expect(after.services[0].applied.length).toBeGreaterThan(0);
  });

  it('runs the app in its own process and stops it cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [ENTRY, 'identity-service'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        RUN_MODE: 'dev',
        DATABASE_URL: db.url,
        NATS_URL: nats.url,
        CAIRN__NATS__NAMESPACE: `k8s${randomBytes(3).toString('hex')}`,
        CAIRN__QUEUE__PREFIX: `cairn-k8s-${randomBytes(3).toString('hex')}`,
        CAIRN__OPS__HOST: '127.0.0.1',
        CAIRN__OPS__PORT: String(await freePort()),
      },
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => output.includes('identity-service ready') || child.exitCode !== null, 'identity-service ready', 60_000);
      expect(child.exitCode, output).toBeNull();
      child.kill('SIGTERM');
      expect(await exited, output).toBe(0);
      expect(output).toContain('identity-service stopped');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
