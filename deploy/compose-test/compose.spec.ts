// docker-compose.yml, rendered by docker-compose's own `config` (no Docker daemon needed; .ci/run installs Debian's
// docker-compose): valid for compose, and starting the whole stack in order.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const REPO_ROOT = path.resolve(import.meta.dirname, '..', '..');
const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');
const ENV_FILE = path.join(import.meta.dirname, 'test.env');
const APPS = ['gateway', 'identity-service', 'repo-service', 'hooks-service', 'runners-service', 'packages-service', 'merge-check-worker'];
const INFRASTRUCTURE = ['postgres', 'nats', 'redis'];

/** `docker compose` (the plugin) when present, else the standalone `docker-compose`. */
function composeCommand(): string[] {
  if (spawnSync('docker', ['compose', 'version']).status === 0) return ['docker', 'compose'];
  if (spawnSync('docker-compose', ['version']).status === 0) return ['docker-compose'];
  throw new Error('neither `docker compose` nor `docker-compose` is installed (.ci/run installs docker-compose)');
}

function composeConfig(env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } {
  const [cmd, ...args] = composeCommand();
  const r = spawnSync(cmd!, [...args, '--env-file', ENV_FILE, '-f', COMPOSE_FILE, 'config'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('docker-compose.yml', () => {
  // Each test spawns docker-compose: a process's time on a loaded machine, not a unit test's 5 s.
  it('renders, and runs each app from the image by name after the migrations', { timeout: 60_000 }, () => {
    const r = composeConfig({});
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.status).toBe(0);
    const { services } = parse(r.stdout) as { services: Record<string, { command?: string[]; environment: Record<string, string>; depends_on?: Record<string, { condition: string }>; healthcheck?: { test: string[] } }> };
    expect(Object.keys(services).sort()).toEqual([...APPS, ...INFRASTRUCTURE, 'migrate'].sort());
    expect(services.migrate!.command).toEqual(['migrate']);
    for (const app of APPS) {
      const s = services[app]!;
      expect(s.command, app).toEqual([app]);
      expect(s.depends_on?.migrate?.condition, app).toBe('service_completed_successfully');
      for (const infra of INFRASTRUCTURE) expect(s.depends_on?.[infra]?.condition, app).toBe('service_healthy');
      expect(s.environment.CAIRN__NATS__PASSWORD, app).toMatch(/^compose-test-/);
      expect(s.healthcheck?.test.join(' '), app).toContain('127.0.0.1:9100/readyz');
    }
    // Every NATS password the server checks is the one its app logs in with.
    const natsEnv = (services.nats as unknown as { environment: Record<string, string> }).environment;
    for (const app of APPS) {
      const user = services[app]!.environment.CAIRN__NATS__USER!;
      expect(natsEnv[`CAIRN_NATS_PASSWORD_${user.replace(/-/g, '_').toUpperCase()}`], app).toBe(services[app]!.environment.CAIRN__NATS__PASSWORD);
    }
  });

  it('refuses to render without the secrets', { timeout: 60_000 }, () => {
    const r = composeConfig({ CAIRN__SECURITY__SECRET_KEY: '' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('CAIRN__SECURITY__SECRET_KEY');
  });
});
