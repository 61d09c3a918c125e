/**
 * End-to-end helpers for the package registries: the people of an access matrix (users, an organization with teams,
 * tokens with package scopes) and the registries' public URLs. Everything goes over the public HTTP API.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createToken, createUser, http, uniqueName, type Account } from './session.js';
import { startTestSuite, type TestSuite } from './suite.js';

/**
 * The apps the package registries' tests start: all but merge-check-worker (the gateway is ready only when identity,
 * repo, hooks and runners answer; packages-service is not among those, so the API stays up without it).
 */
export const PACKAGES_SUITE_APPS = ['identity-service', 'repo-service', 'hooks-service', 'runners-service', 'packages-service', 'gateway'];

/** A running suite for package tests: its site admin and a connection to its database (to check what was stored). */
export interface PackagesTestBed {
  suite: TestSuite;
  admin: Account;
  db: pg.Client;
  stop: () => Promise<void>;
}

/** Starts {@link PACKAGES_SUITE_APPS} with `env`, creates the site admin and connects to the suite's database. */
export async function startPackagesSuite(env: Record<string, string> = {}): Promise<PackagesTestBed> {
  const suite = await startTestSuite({ apps: PACKAGES_SUITE_APPS, env });
  const db = new pg.Client({ connectionString: suite.databaseUrl });
  try {
    const admin = await suite.createAdmin();
    await db.connect();
    return {
      suite,
      admin,
      db,
      stop: async () => {
        await db.end().catch(() => undefined);
        await suite.stop();
      },
    };
  } catch (err) {
    await suite.stop();
    throw err;
  }
}

/** What one `curl` call answered. */
export interface CurlResult {
  status: number;
  /** Response headers, lower-case names (the last response's, after redirects). */
  headers: Record<string, string>;
  /** The response body (`-o` to a file, read back). */
  body: Buffer;
  stderr: string;
}

/**
 * Runs the real `curl` (argument vector, no shell) with `args` plus its own `-sS -o <file> -D <file> -w %{http_code}`;
 * resolves with the status, headers and body whatever the status (a transport failure rejects).
 */
export async function curl(args: string[]): Promise<CurlResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cairn-curl-'));
  const bodyFile = path.join(dir, 'body');
  const headerFile = path.join(dir, 'headers');
  try {
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        'curl',
        ['-sS', '-o', bodyFile, '-D', headerFile, '-w', '%{http_code}', ...args],
        { maxBuffer: 1024 * 1024, timeout: 300_000 },
        (err, out, errOut) => (err ? reject(new Error(`curl ${args.join(' ')} failed: ${errOut || err.message}`)) : resolve({ stdout: out, stderr: errOut })),
      );
    });
    const headers: Record<string, string> = {};
    const blocks = readFileSync(headerFile, 'utf8').trim().split(/\r?\n\r?\n/);
    for (const line of blocks[blocks.length - 1].split(/\r?\n/).slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let body = Buffer.alloc(0);
    try {
      body = readFileSync(bodyFile);
    } catch {
      // no body written (HEAD, 204)
    }
    return { status: Number(stdout.trim()), headers, body, stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type SuiteLike = Pick<TestSuite, 'api' | 'baseUrl'>;

/** The registries' base URLs below a suite. */
export function registryUrls(suite: Pick<TestSuite, 'baseUrl'>, owner: string) {
  const o = encodeURIComponent(owner);
  return {
    /** `…/api/packages/{owner}/generic` (then `/{name}/{version}/{filename}`). */
    generic: `${suite.baseUrl}/api/packages/${o}/generic`,
    /** The npm registry URL of an owner (`npm --registry`). */
    npm: `${suite.baseUrl}/api/packages/${o}/npm/`,
    /** The container registry host (`skopeo … docker://<host>/{owner}/{image}:{tag}`). */
    containerHost: new URL(suite.baseUrl).host,
    /** The OCI distribution API root. */
    oci: `${suite.baseUrl}/v2`,
  };
}

/** The URL of one generic package file. */
export function genericFileUrl(suite: Pick<TestSuite, 'baseUrl'>, owner: string, name: string, version: string, filename: string): string {
  const e = encodeURIComponent;
  return `${registryUrls(suite, owner).generic}/${e(name)}/${e(version)}/${e(filename)}`;
}

/** A user with a token of the given scopes. */
export interface PackageUser extends Account {
  token: string;
}

export async function createPackageUser(
  suite: SuiteLike,
  admin: Account,
  stem: string,
  scopes: string[] = ['write:package'],
  extra: Record<string, unknown> = {},
): Promise<PackageUser> {
  const user = await createUser(suite, admin, uniqueName(stem), extra);
  return { ...user, token: await createToken(suite, user, scopes) };
}

/** Creates an organization owned by `owner` (visibility public, limited or private). */
export async function createOrg(suite: SuiteLike, owner: Account, visibility: 'public' | 'limited' | 'private' = 'public'): Promise<string> {
  const name = uniqueName('org');
  const res = await http(suite).post('/orgs', { basic: owner, body: { username: name, visibility } });
  if (res.status !== 201) throw new Error(`POST /orgs answered ${res.status}: ${res.text}`);
  return name;
}

/** Creates a team in `org` with a permission on the given units, and adds `members` to it. */
export async function createTeam(
  suite: SuiteLike,
  orgOwner: Account,
  org: string,
  permission: 'read' | 'write' | 'admin',
  members: Account[],
  units: string[] = ['repo.packages'],
): Promise<number> {
  const client = http(suite);
  const res = await client.post<{ id: number }>(`/orgs/${org}/teams`, {
    basic: orgOwner,
    body: { name: uniqueName(`team-${permission}`), permission, units },
  });
  if (res.status !== 201) throw new Error(`POST /orgs/${org}/teams answered ${res.status}: ${res.text}`);
  for (const m of members) {
    const added = await client.put(`/teams/${res.body.id}/members/${m.username}`, { basic: orgOwner });
    if (added.status !== 204) throw new Error(`adding ${m.username} to team ${res.body.id} answered ${added.status}: ${added.text}`);
  }
  return res.body.id;
}

/** A chunked upload that keeps sending until {@link EndlessUpload.stop}: to kill a service in the middle of one. */
export interface EndlessUpload {
  /** Bytes handed to the socket so far. */
  sent(): number;
  /** Stops sending, drops the connection, and answers the status the service gave (or the connection's error). */
  stop(): Promise<number | string>;
}

export function startEndlessUpload(url: URL, token: string): EndlessUpload {
  const chunk = Buffer.alloc(256 * 1024, 7);
  const upload = request(url, { method: 'PUT', headers: { authorization: `token ${token}`, 'transfer-encoding': 'chunked' } });
  const answered = new Promise<number | string>((resolve) => {
    upload.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    upload.on('error', (err) => resolve(err.message));
  });
  let sending = true;
  let sent = 0;
  const closed = new Promise((r) => upload.once('close', r));
  const pumping = (async () => {
    while (sending && !upload.destroyed) {
      sent += chunk.length;
      if (!upload.write(chunk)) await Promise.race([new Promise((r) => upload.once('drain', r)), closed]);
      await new Promise((r) => setImmediate(r));
    }
  })();
  return {
    sent: () => sent,
    async stop() {
      sending = false;
      await pumping;
      upload.destroy();
      return answered;
    },
  };
}
