/**
 * Gitea's Go SDK (code.gitea.io/sdk/gitea) as a real client: test/clients/gitea-sdk/ is a Go program that calls every
 * SDK method whose Gitea operation Cairn's published description implements, with real data, and checks what comes
 * back. Built once into ~/.cache/cairn-clients by scripts/clients/gitea-sdk.mjs (needs Go). Fails on any failure not
 * listed in test/clients/gitea-sdk/known-differences.json, on a listed one that now succeeds, and on a method of an
 * implemented operation it did not call unless listed there with its reason.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSpec, clientStatus, ensureClient } from '../../scripts/clients.mjs';
import { REPO_ROOT } from '../../scripts/suite.mjs';
import { run } from '../support/git.js';
import { createToken, type Account } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const SOURCES = path.join(REPO_ROOT, 'test/clients/gitea-sdk');
const known = JSON.parse(readFileSync(path.join(SOURCES, 'known-differences.json'), 'utf8')) as {
  failures: Record<string, string>;
  notCalled: Record<string, string>;
};

interface Result { method: string; operationId: string; ok: boolean; error?: string }
interface Summary {
  sdk: string;
  calls: number;
  succeeded: number;
  failed: number;
  failures: Result[];
  results: Result[];
  coverage: { mapped: number; called: number; notCalled: string[]; calledUnimplemented: string[] };
}

const missing = clientStatus(clientSpec('gitea-sdk')).missing;
if (missing && process.env.CI === 'true') throw new Error(`gitea-sdk needs ${missing}`);
if (missing) process.stdout.write(`gitea-sdk: skipped, install ${missing}\n`);

describe.skipIf(missing !== null)('Gitea Go SDK against Cairn', () => {
  let suite: TestSuite;
  let admin: Account;
  let token: string;
  let bin: string;
  let keyDir: string;

  beforeAll(async () => {
    ({ bin } = await ensureClient('gitea-sdk'));
    // The instance signs with an SSH key, so the signing-key routes have a key to serve (and the OpenPGP ones a 404).
    keyDir = mkdtempSync(path.join(tmpdir(), 'cairn-sdk-key-'));
    const made = await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'gitea', '-f', path.join(keyDir, 'key')]);
    expect(made.code, made.stderr).toBe(0);
    suite = await startTestSuite({
      env: {
        ...FAST_PASSWORD_HASH,
        CAIRN__REPOSITORY_SIGNING__SIGNING_KEY: path.join(keyDir, 'key.pub'),
        CAIRN__REPOSITORY_SIGNING__SIGNING_FORMAT: 'ssh',
      },
    });
    admin = await suite.createAdmin();
    token = await createToken(suite, admin, ['all']);
  }, 600_000);

  afterAll(async () => {
    await suite?.stop();
    if (keyDir) rmSync(keyDir, { recursive: true, force: true });
  });

  it('calls every SDK method of an implemented operation; only the known differences fail', async () => {
    const res = await run(bin, [], {
      env: {
        ...process.env,
        CAIRN_URL: suite.baseUrl,
        CAIRN_ADMIN_USER: admin.username,
        CAIRN_ADMIN_PASSWORD: admin.password,
        CAIRN_TOKEN: token,
        CAIRN_OPENAPI: path.join(REPO_ROOT, 'apps/gateway/openapi/swagger.v1.json'),
        CAIRN_SDK_OPERATIONS: path.join(SOURCES, 'sdk-operations.json'),
        CAIRN_SIGNING_FORMAT: 'ssh',
      },
      timeoutMs: 300_000,
    });
    expect(res.code, res.stderr).toBe(0);
    const human = res.stdout.trim().split('\n').at(-1)!;
    process.stdout.write(`${human}\n`);
    const summary = JSON.parse(res.stdout.slice(0, res.stdout.lastIndexOf('}') + 1)) as Summary;

    const unexpected = summary.failures.filter((f) => !(f.method in known.failures));
    expect(unexpected, 'failures not in known-differences.json').toEqual([]);
    const failedMethods = new Set(summary.failures.map((f) => f.method));
    const nowSucceeding = Object.keys(known.failures).filter((m) => !failedMethods.has(m));
    expect(nowSucceeding, 'known differences that now succeed: remove them from known-differences.json and docs/compatibility.md').toEqual([]);
    expect(summary.coverage.notCalled, 'SDK methods of implemented operations not called').toEqual(Object.keys(known.notCalled).sort());
    expect(summary.coverage.calledUnimplemented).toEqual([]);
    expect(summary.calls).toBe(summary.succeeded + summary.failed);
  }, 600_000);
});
