/**
 * Helpers shared by the identity end-to-end tests (users, tokens, keys, organizations, gateway errors): error-body
 * checks, contract checks, real SSH keys from `ssh-keygen`, and finding one app's process of a running suite.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { assertMatchesContract } from '../support/openapi-contract.js';
import type { HttpResponse } from '../support/session.js';

/**
 * Every identity suite hashes passwords with a cheap scrypt cost: Basic-auth requests then take milliseconds instead of
 * ~100 ms of CPU each on these two cores. The cost is a documented setting (`[security] PASSWORD_HASH_ALGO`), stored
 * with each hash; nothing else about authentication changes.
 */
export const FAST_PASSWORD_HASH = { CAIRN__SECURITY__PASSWORD_HASH_ALGO: 'scrypt$1024$8$1' } as const;

/** Gitea's error body: `{ message, url }` (+ `errors`), with a status and, optionally, an expected message. */
export function expectApiError(res: HttpResponse, status: number, message?: string | RegExp): void {
  expect(res.status, `${status} expected, got ${res.status}: ${res.text}`).toBe(status);
  expect(res.body, res.text).toMatchObject({ message: expect.any(String), url: expect.any(String) });
  expect(res.body.message.length).toBeGreaterThan(0);
  if (status >= 500) expect(res.body.message).not.toMatch(/prisma|stack|\bat .*\.js|ECONN|SELECT|INSERT|UPDATE/i);
  if (message === undefined) return;
  // A validation failure lists every broken rule in `errors`; the expected one may be any of them.
  const texts: string[] = [res.body.message, ...(Array.isArray(res.body.errors) ? res.body.errors : [])];
  const found = texts.some((t) => (typeof message === 'string' ? t === message : message.test(t)));
  expect(found, `${String(message)} not in ${JSON.stringify(texts)}`).toBe(true);
}

/** A 4xx with a JSON message: what every malformed input must get (never a 500). */
export function expectClientError(res: HttpResponse, status?: number): void {
  expect(res.status, res.text).toBeGreaterThanOrEqual(400);
  expect(res.status, res.text).toBeLessThan(500);
  if (status !== undefined) expect(res.status, res.text).toBe(status);
  expect(typeof res.body === 'object' && res.body !== null ? res.body.message : undefined, res.text).toEqual(
    expect.any(String),
  );
}

/** A successful response whose body matches the published API description for the route. */
export function expectContract(method: string, route: string, res: HttpResponse, status = 200): void {
  expect(res.status, res.text).toBe(status);
  assertMatchesContract(method, route, res.status, res.body);
}

/** The exact 403 message Gitea gives a token without the scope a route needs. */
export function scopeMessage(required: string, tokenScopes: string[]): string {
  return `token does not have at least one of required scope(s), required=[${required}], token scope=${tokenScopes.join(',')}`;
}

export interface SshKey {
  /** The `authorized_keys` line (type, base64, comment). */
  publicKey: string;
  /** `SHA256:…`, as `ssh-keygen -l -E sha256` prints it. */
  fingerprint: string;
  /** The private key file (for `ssh -i`). */
  privateKeyPath: string;
}

/** Real key pairs made by `ssh-keygen`, in one temporary folder removed by `cleanup()`. */
export function sshKeyFactory(): { generate: (type: 'ed25519' | 'ecdsa' | 'rsa', bits?: number) => SshKey; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-e2e-keys-'));
  let n = 0;
  return {
    generate(type, bits) {
      const file = path.join(dir, `key${n++}`);
      const args = ['-q', '-t', type, '-N', '', '-C', `e2e-${n}@cairn`, '-f', file];
      if (bits) args.push('-b', String(bits));
      execFileSync('ssh-keygen', args, { stdio: 'ignore' });
      const publicKey = readFileSync(`${file}.pub`, 'utf8').trim();
      const listed = execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${file}.pub`], { encoding: 'utf8' });
      const fingerprint = listed.split(' ')[1];
      return { publicKey, fingerprint, privateKeyPath: file };
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The pid of one app of a suite started by this test process: the suite spawns `node apps/<app>/dist/main.js` as
 * children of this process, so look among our own children (other suites on the machine have other parents).
 */
export function childAppPid(app: string): number {
  const marker = `apps/${app}/dist/main.js`;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline.includes(marker)) found.push(Number(entry));
    } catch {
      // the process went away while we looked
    }
  }
  if (found.length !== 1) throw new Error(`expected one ${app} process started by this test, found ${found.length}`);
  return found[0];
}
