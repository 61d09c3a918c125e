/** Finding 7: in production mode every app refuses to start (78) while `INTERNAL_TOKEN` or `SECRET_KEY` is unset or public. */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS, REPO_ROOT } from '../../../../scripts/suite.mjs';
import {
  createScratchDatabase, startPrivateNats, type PrivateNats, type ScratchDatabase,
} from '../../../../test/support/integration.js';
import { DEV_SECRET_KEY } from '../crypto/secret-box.js';
import { commonSettings } from '../config/settings.js';

const INTERNAL_TOKEN = 'CAIRN__SECURITY__INTERNAL_TOKEN';
const SECRET_KEY = 'CAIRN__SECURITY__SECRET_KEY';
const READS_SECRET_KEY = new Set(['identity-service', 'hooks-service', 'runners-service']);

function baseEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
}

interface Run {
  code: number | null;
  output: string;
}

/** One still running after 30 s (it started: the bug) is killed and reports code null. */
function runApp(main: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const bound = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => clearTimeout(bound));
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('production refuses insecure secrets (built apps)', () => {
  for (const app of APPS) {
    it(`${app.name} exits 78 naming the missing secrets`, async () => {
      const run = await runApp(app.main, baseEnv({ RUN_MODE: 'prod' }));
      expect(run.code).toBe(78);
      expect(run.output).toContain(INTERNAL_TOKEN);
      if (READS_SECRET_KEY.has(app.name)) expect(run.output).toContain(SECRET_KEY);
    });
  }

  it('refuses the public default values given explicitly, naming only those', async () => {
    const identity = APPS.find((a) => a.name === 'identity-service')!;
    const publicToken = commonSettings.internalToken.default;
    const both = await runApp(identity.main, baseEnv({ RUN_MODE: 'prod', [INTERNAL_TOKEN]: publicToken, [SECRET_KEY]: DEV_SECRET_KEY }));
    expect(both.code).toBe(78);
    expect(both.output).toContain(INTERNAL_TOKEN);
    expect(both.output).toContain(SECRET_KEY);

    const keyOnly = await runApp(
      identity.main,
      baseEnv({ RUN_MODE: 'prod', [INTERNAL_TOKEN]: randomBytes(24).toString('hex'), [SECRET_KEY]: DEV_SECRET_KEY }),
    );
    expect(keyOnly.code).toBe(78);
    expect(keyOnly.output).toContain(SECRET_KEY);
    expect(keyOnly.output).not.toContain(INTERNAL_TOKEN);
  });

  it('refuses the public token written in an app.ini too', async () => {
    const gateway = APPS.find((a) => a.name === 'gateway')!;
    const dir = mkdtempSync(path.join(tmpdir(), 'cairn-it-ini-'));
    try {
      const ini = path.join(dir, 'app.ini');
      writeFileSync(ini, `RUN_MODE = prod\n\n[security]\nINTERNAL_TOKEN = ${commonSettings.internalToken.default}\n`);
      const run = await runApp(gateway.main, baseEnv({ RUN_MODE: 'prod', CAIRN_CONFIG: ini }));
      expect(run.code).toBe(78);
      expect(run.output).toContain(INTERNAL_TOKEN);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('development mode keeps the development defaults', () => {
  let nats: PrivateNats;
  let db: ScratchDatabase;
  beforeAll(async () => {
    nats = await startPrivateNats();
    db = await createScratchDatabase('devsecrets', { services: ['runners'] });
  });
  afterAll(async () => {
    await nats?.stop();
    await db?.drop();
  });

  it('starts without any secret and stops cleanly on SIGTERM', async () => {
    const runners = APPS.find((a) => a.name === 'runners-service')!;
    const child = spawn(process.execPath, [runners.main], {
      cwd: REPO_ROOT,
      env: baseEnv({ RUN_MODE: 'dev', NATS_URL: nats.url, DATABASE_URL: db.url, CAIRN__OPS__PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d;
        if (output.includes('runners-service ready')) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then((code) => reject(new Error(`runners-service exited (${code}) before ready:\n${output}`)));
    });
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).not.toContain('refuses to start');
  });
});
