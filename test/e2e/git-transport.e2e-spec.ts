/**
 * Git transport end to end (issue 3), with the real `git` and `ssh` commands: clone, fetch and push over smart HTTP
 * (through the gateway; Basic with a password or a token, a token header, anonymous) and over SSH (public-key
 * authentication against the identity keys, whose `last_used_at` turns non-null), the permission matrix (anonymous,
 * stranger, reader, writer, admin collaborator, organization owner, site administrator) on a private and a public
 * repository, pushing into an empty repository (which sets its default branch), refused pushes to server-owned refs
 * (`refs/pull/*`), and hostile input — option-like
 * commands, refs and paths, `../`, odd owner and repository names — which must end in clean refusals, never a 500.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken, createUser, http, uniqueName, type Account, type HttpClient,
} from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { bareRepoPath, commitAll, generateSshKey, gitRunner, gitSshCommand, httpCloneUrl, redact, sshCloneUrl, sshExec, workspace, type Git, type KeyPair, type RunResult } from '../support/git.js';
import { expectApiError } from './identity-helpers.js';

type Role = 'anonymous' | 'stranger' | 'reader' | 'writer' | 'repoAdmin' | 'orgOwner' | 'siteAdmin';
type SignedIn = Exclude<Role, 'anonymous'>;
const ROLES: Role[] = ['anonymous', 'stranger', 'reader', 'writer', 'repoAdmin', 'orgOwner', 'siteAdmin'];
const SIGNED_IN = ROLES.filter((r): r is SignedIn => r !== 'anonymous');

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-git-');
let git: Git;
let home: string;
const people = {} as Record<SignedIn, Account>;
const keys = {} as Record<SignedIn, KeyPair & { id: number }>;
/** A key nobody registered: SSH's "anonymous". */
let unknownKey: KeyPair;
let org: string;
let secret: string;
let open: string;
/** Per repository: a clone (made by the organization owner) with one extra local commit, to push from. */
const work: Record<string, { dir: string; head: string }> = {};

const MARKER = () => path.join(ws.root, 'pwned');

function credentials(role: Role) {
  return role === 'anonymous' ? undefined : { username: people[role].username, secret: people[role].password };
}

/** Runs git against a remote: over HTTP with the role's password, or over SSH with the role's key. */
function remote(transport: 'http' | 'ssh', role: Role, repo: string, owner = org): { url: string; env: Record<string, string> } {
  if (transport === 'http') return { url: httpCloneUrl(suite.baseUrl, owner, repo, credentials(role)), env: {} };
  const key = role === 'anonymous' ? unknownKey : keys[role];
  return { url: sshCloneUrl(suite.sshPort, owner, repo), env: { GIT_SSH_COMMAND: gitSshCommand(key.privateKeyPath, suite.sshPort) } };
}

/** `git fetch <url> main` into a scratch repository: a real upload-pack exchange. */
async function fetchMain(transport: 'http' | 'ssh', role: Role, repo: string): Promise<RunResult & { fetched?: string }> {
  const dir = ws.dir('fetch');
  await git.ok(['init', '-q', dir]);
  const { url, env } = remote(transport, role, repo);
  const r = await git.try(['fetch', '-q', url, 'refs/heads/main'], { cwd: dir, env });
  if (r.code !== 0) return r;
  return { ...r, fetched: await git.ok(['rev-parse', 'FETCH_HEAD'], { cwd: dir }) };
}

async function branchSha(owner: string, repo: string, branch: string): Promise<string | null> {
  const res = await api.get(`/repos/${owner}/${repo}/branches/${branch}`, { basic: people.orgOwner });
  if (res.status === 404) return null;
  expect(res.status, res.text).toBe(200);
  return res.body.commit.id;
}

async function mainSha(repo: string): Promise<string> {
  return (await branchSha(org, repo, 'main'))!;
}

function expectRefused(r: RunResult, pattern: RegExp, what: string): void {
  expect(r.code, `${what} should fail:\n${redact(r.stderr)}`).not.toBe(0);
  expect(redact(r.stderr), what).toMatch(pattern);
}

beforeAll(async () => {
  suite = await sharedTestSuite();
  api = http(suite);
  home = ws.dir('home');
  git = gitRunner(home);
  people.siteAdmin = await suite.createAdmin();
  const [orgOwner, reader, writer, repoAdmin, stranger] = await Promise.all(
    ['owner', 'reader', 'writer', 'radmin', 'stranger'].map((stem) => createUser(suite, people.siteAdmin, uniqueName(stem))),
  );
  Object.assign(people, { orgOwner, reader, writer, repoAdmin, stranger });
  for (const role of SIGNED_IN) {
    const pair = await generateSshKey(ws.dir(`key-${role}`), `${role}@e2e`);
    const res = await api.post('/user/keys', { basic: people[role], body: { title: `${role} laptop`, key: pair.publicKey } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.last_used_at ?? null).toBeNull();
    keys[role] = { ...pair, id: res.body.id };
  }
  unknownKey = await generateSshKey(ws.dir('key-unknown'), 'nobody@e2e');

  org = uniqueName('org');
  expect((await api.post('/orgs', { basic: orgOwner, body: { username: org } })).status).toBe(201);
  secret = uniqueName('secret');
  open = uniqueName('open');
  for (const [name, isPrivate] of [[secret, true], [open, false]] as const) {
    const res = await api.post(`/orgs/${org}/repos`, { basic: orgOwner, body: { name, private: isPrivate, auto_init: true } });
    expect(res.status, res.text).toBe(201);
    for (const [who, permission] of [[reader, 'read'], [writer, 'write'], [repoAdmin, 'admin']] as const) {
      const put = await api.put(`/repos/${org}/${name}/collaborators/${who.username}`, { basic: orgOwner, body: { permission } });
      expect(put.status, put.text).toBe(204);
    }
    const dir = ws.dir(`work-${name}`);
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, org, name, credentials('orgOwner')), dir]);
    const head = await commitAll(git, dir, { 'pushed.txt': `pushed to ${name}\n` }, 'a commit to push');
    work[name] = { dir, head };
  }
});

afterAll(async () => {
  ws.cleanup();
  await suite?.stop();
});

// ---- the permission matrix -----------------------------------------------------------------------------------------

const CAN_FETCH_PRIVATE: Role[] = ['reader', 'writer', 'repoAdmin', 'orgOwner', 'siteAdmin'];
const CAN_PUSH: Role[] = ['writer', 'repoAdmin', 'orgOwner', 'siteAdmin'];

describe.each(['http', 'ssh'] as const)('permission matrix over %s', (transport) => {
  it.each(ROLES)('%s: fetch', async (role) => {
    for (const [repo, isPrivate] of [[secret, true], [open, false]] as const) {
      const r = await fetchMain(transport, role, repo);
      const what = `${transport} fetch of ${isPrivate ? 'private' : 'public'} repo by ${role}`;
      const allowed = isPrivate ? CAN_FETCH_PRIVATE.includes(role) : transport === 'http' || role !== 'anonymous';
      if (allowed) {
        expect(r.code, `${what}:\n${redact(r.stderr)}`).toBe(0);
        expect(r.fetched, what).toBe(await mainSha(repo));
      } else if (transport === 'ssh' && role === 'anonymous') {
        expectRefused(r, /Permission denied \(publickey\)/, what);
      } else if (role === 'anonymous') {
        // 401 with a Basic challenge; git would ask for a password, but prompts are off.
        expectRefused(r, /could not read Username|Authentication failed/, what);
      } else {
        expectRefused(r, transport === 'http' ? /not found/i : /does not exist or you do not have access to it/, what);
      }
    }
  });

  it.each(ROLES)('%s: push', async (role) => {
    for (const [repo, isPrivate] of [[secret, true], [open, false]] as const) {
      const branch = `${transport}-${role}`;
      const { url, env } = remote(transport, role, repo);
      const r = await git.try(['push', '-q', url, `HEAD:refs/heads/${branch}`], { cwd: work[repo].dir, env });
      const what = `${transport} push to ${isPrivate ? 'private' : 'public'} repo by ${role}`;
      if (CAN_PUSH.includes(role)) {
        expect(r.code, `${what}:\n${redact(r.stderr)}`).toBe(0);
        expect(await branchSha(org, repo, branch), what).toBe(work[repo].head);
        continue;
      }
      if (transport === 'ssh' && role === 'anonymous') {
        expectRefused(r, /Permission denied \(publickey\)/, what);
      } else if (role === 'anonymous') {
        expectRefused(r, /could not read Username|Authentication failed/, what);
      } else if (isPrivate && role === 'stranger') {
        expectRefused(r, transport === 'http' ? /not found/i : /does not exist or you do not have access to it/, what);
      } else {
        // Readers (and strangers on a public repository) see it but may not push: 403 / a refusal.
        expectRefused(
          r,
          transport === 'http'
            ? new RegExp(`User permission denied: ${people[role].username} may not push|403`)
            : new RegExp(`User ${people[role].username} is not allowed to push`),
          what,
        );
      }
      expect(await branchSha(org, repo, branch), `${what}: nothing may have changed`).toBeNull();
    }
  });
});

describe.each(['http', 'ssh'] as const)('server-owned refs over %s', (transport) => {
  it('a writer cannot push refs/pull/*: the push is refused with a remote: message; branches and tags still go', async () => {
    const { url, env } = remote(transport, 'writer', open);
    const bare = bareRepoPath(suite.dataDir, org, open);
    const refused = await git.try(['push', url, `HEAD:refs/pull/1/head`], { cwd: work[open].dir, env });
    expectRefused(refused, /remote: Cairn: refs\/pull\/1\/head is managed by the server and cannot be pushed to/, `${transport} push to refs/pull/1/head`);
    expect(redact(refused.stderr)).toContain('(pre-receive hook declined)');
    const listed = await git.ok(['--git-dir', bare, 'for-each-ref', 'refs/pull']);
    expect(listed).toBe('');

    const ok = await git.try(['push', '-q', url, `HEAD:refs/heads/owned-${transport}`, `HEAD:refs/tags/owned-${transport}`], { cwd: work[open].dir, env });
    expect(ok.code, redact(ok.stderr)).toBe(0);
    expect(await branchSha(org, open, `owned-${transport}`)).toBe(work[open].head);
  });
});

describe('git over HTTP', () => {
  it('clones a public repository anonymously, with its files and history', async () => {
    const dir = ws.dir('anon');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, org, open), dir]);
    expect(existsSync(path.join(dir, 'README.md'))).toBe(true);
    expect(await git.ok(['rev-parse', 'HEAD'], { cwd: dir })).toBe(await mainSha(open));
    expect(await git.ok(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: dir })).toBe('main');
  });

  it('answers an anonymous request for a private repository with 401 and a Basic challenge, like a missing one', async () => {
    for (const repo of [secret, uniqueName('missing')]) {
      const res = await fetch(`${suite.baseUrl}/${org}/${repo}.git/info/refs?service=git-upload-pack`);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    }
    // With credentials of someone who cannot see it: 404, also like a missing one.
    const auth = { authorization: people.stranger.basic };
    for (const repo of [secret, uniqueName('missing')]) {
      const res = await fetch(`${suite.baseUrl}/${org}/${repo}.git/info/refs?service=git-upload-pack`, { headers: auth });
      expect(res.status).toBe(404);
    }
  });

  it('clones, then fetches what another user pushed meanwhile (with and without .git in the URL)', async () => {
    const dir = ws.dir('fetcher');
    const url = httpCloneUrl(suite.baseUrl, org, secret, credentials('reader'));
    await git.ok(['clone', '-q', url, dir]);
    const writerClone = ws.dir('writer');
    await git.ok(['clone', '-q', httpCloneUrl(suite.baseUrl, org, secret, credentials('writer')), writerClone]);
    const sha = await commitAll(git, writerClone, { 'news.txt': 'news\n' }, 'news');
    await git.ok(['push', '-q', 'origin', 'HEAD:main'], { cwd: writerClone });
    await git.ok(['fetch', '-q', 'origin'], { cwd: dir });
    expect(await git.ok(['rev-parse', 'origin/main'], { cwd: dir })).toBe(sha);
    const noSuffix = ws.dir('nosuffix');
    await git.ok(['clone', '-q', url.replace(/\.git$/, ''), noSuffix]);
    expect(await git.ok(['rev-parse', 'HEAD'], { cwd: noSuffix })).toBe(sha);
  });

  it('accepts a token as the Basic password and in an Authorization header; scopes decide fetch and push', async () => {
    const all = await createToken(suite, people.writer, ['write:repository']);
    const viaPassword = httpCloneUrl(suite.baseUrl, org, secret, { username: people.writer.username, secret: all });
    const dir = ws.dir('token');
    await git.ok(['clone', '-q', viaPassword, dir]);
    const sha = await commitAll(git, dir, { 'token.txt': 'token\n' }, 'via token');
    await git.ok(['push', '-q', viaPassword, 'HEAD:refs/heads/via-token'], { cwd: dir });
    expect(await branchSha(org, secret, 'via-token')).toBe(sha);

    const plain = httpCloneUrl(suite.baseUrl, org, secret);
    const header = ws.dir('header');
    await git.ok(['-c', `http.extraHeader=Authorization: token ${all}`, 'clone', '-q', plain, header]);
    expect(existsSync(path.join(header, 'token.txt'))).toBe(false); // main did not move
    expect(await git.ok(['rev-parse', 'HEAD'], { cwd: header })).toBe(await mainSha(secret));

    const readOnly = await createToken(suite, people.writer, ['read:repository']);
    const ro = httpCloneUrl(suite.baseUrl, org, secret, { username: people.writer.username, secret: readOnly });
    expect((await git.try(['ls-remote', ro])).code).toBe(0);
    expectRefused(
      await git.try(['push', '-q', ro, 'HEAD:refs/heads/ro-token'], { cwd: dir }),
      /required=\[write:repository\]|403/,
      'push with a read:repository token',
    );
    expect(await branchSha(org, secret, 'ro-token')).toBeNull();

    const userOnly = await createToken(suite, people.writer, ['read:user']);
    const res = await fetch(`${suite.baseUrl}/${org}/${secret}.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `token ${userOnly}` },
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('required=[read:repository]');
  });

  it('refuses a wrong password and an unknown token (401: git says authentication failed)', async () => {
    for (const creds of [
      { username: people.writer.username, secret: 'wrong-password' },
      { username: people.writer.username, secret: `cairn_${'0'.repeat(40)}` },
    ]) {
      const r = await git.try(['ls-remote', httpCloneUrl(suite.baseUrl, org, secret, creds)]);
      expectRefused(r, /Authentication failed/, 'bad credentials');
    }
  });

  it('refuses the dumb protocol and unknown services (403)', async () => {
    for (const query of ['', '?service=git-upload-archive', '?service=--upload-pack']) {
      const res = await fetch(`${suite.baseUrl}/${org}/${open}.git/info/refs${query}`);
      expect(res.status, query).toBe(403);
      expect(await res.text()).toMatch(/smart git client/);
    }
    for (const file of ['HEAD', 'objects/info/packs', 'config']) {
      const res = await fetch(`${suite.baseUrl}/${org}/${open}.git/${file}`);
      expect(res.status, file).toBe(404);
    }
  });
});

describe('git over SSH', () => {
  it('clones, pushes and fetches with a registered key; every key used has last_used_at set', async () => {
    const dir = ws.dir('ssh');
    const { url, env } = remote('ssh', 'writer', secret);
    await git.ok(['clone', '-q', url, dir], { env });
    const sha = await commitAll(git, dir, { 'ssh.txt': 'over ssh\n' }, 'over ssh');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/over-ssh'], { cwd: dir, env });
    expect(await branchSha(org, secret, 'over-ssh')).toBe(sha);
    await git.ok(['fetch', '-q', 'origin'], { cwd: dir, env });

    // Every role fetches the public repository once over SSH; each key's use is recorded as the operation completes
    // (read back with a short retry: identity-service writes it on its own).
    for (const role of SIGNED_IN) {
      const { url: publicUrl, env: roleEnv } = remote('ssh', role, open);
      await git.ok(['ls-remote', publicUrl], { env: roleEnv });
      let lastUsed: string | null = null;
      for (let i = 0; i < 50 && !lastUsed; i++) {
        const res = await api.get(`/user/keys/${keys[role].id}`, { basic: people[role] });
        expect(res.status, res.text).toBe(200);
        lastUsed = res.body.last_used_at ?? null;
        if (!lastUsed) await new Promise((r) => setTimeout(r, 100));
      }
      expect(lastUsed, `${role}'s key`).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/));
    }
  });

  it('greets a shell request with the user name and no shell', async () => {
    const r = await sshExec(keys.reader.privateKeyPath, suite.sshPort, '', home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain(`Hi ${people.reader.username}!`);
    expect(r.stdout + r.stderr).toMatch(/does not provide shell access/);
  });

  it('refuses keys nobody registered, and users other than git', async () => {
    const r = await sshExec(unknownKey.privateKeyPath, suite.sshPort, `git-upload-pack '${org}/${open}.git'`, home);
    expect(r.code).toBe(255);
    expect(r.stderr).toMatch(/Permission denied \(publickey\)/);
    const other = await git.try(['ls-remote', `ssh://${people.reader.username}@127.0.0.1:${suite.sshPort}/${org}/${open}.git`], {
      env: { GIT_SSH_COMMAND: gitSshCommand(keys.reader.privateKeyPath, suite.sshPort) },
    });
    expectRefused(other, /Permission denied \(publickey\)/, 'ssh as a user other than git');
  });
});

describe('pushing into an empty repository', () => {
  it.each(['http', 'ssh'] as const)('over %s: the push works and its branch becomes the default branch', async (transport) => {
    const name = uniqueName(`blank-${transport}`);
    const created = await api.post(`/orgs/${org}/repos`, { basic: people.orgOwner, body: { name } });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ empty: true, default_branch: 'main' });

    const dir = ws.dir('blank');
    await git.ok(['init', '-q', '-b', 'trunk', dir]);
    const sha = await commitAll(git, dir, { 'README.md': '# first\n', 'src/a.txt': 'a\n' }, 'first commit');
    const owner = remote(transport, 'orgOwner', name);
    await git.ok(['push', '-q', owner.url, 'trunk'], { cwd: dir, env: owner.env });

    const repo = await api.get(`/repos/${org}/${name}`, { basic: people.orgOwner });
    expect(repo.body).toMatchObject({ empty: false, default_branch: 'trunk' });
    expect(await branchSha(org, name, 'trunk')).toBe(sha);
    const file = await api.get(`/repos/${org}/${name}/contents/src/a.txt`, { basic: people.orgOwner });
    expect(Buffer.from(file.body.content, 'base64').toString()).toBe('a\n');
    // A fresh clone checks out the pushed branch (HEAD followed the first push).
    const clone = ws.dir('after-blank');
    await git.ok(['clone', '-q', owner.url, clone], { env: owner.env });
    expect(await git.ok(['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: clone })).toBe('trunk');

    // A later push of another branch leaves the default branch alone.
    await git.ok(['push', '-q', owner.url, 'trunk:refs/heads/main'], { cwd: dir, env: owner.env });
    expect((await api.get(`/repos/${org}/${name}`, { basic: people.orgOwner })).body.default_branch).toBe('trunk');
  });

  it('an empty repository clones (empty) and answers the commit list with 409', async () => {
    const name = uniqueName('still-empty');
    expect((await api.post(`/orgs/${org}/repos`, { basic: people.orgOwner, body: { name } })).status).toBe(201);
    const dir = ws.dir('empty-clone');
    const r = await git.try(['clone', httpCloneUrl(suite.baseUrl, org, name, credentials('orgOwner')), dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/empty repository/);
    expectApiError(await api.get(`/repos/${org}/${name}/commits`, { basic: people.orgOwner }), 409, 'Git Repository is empty.');
  });
});

describe('repository names starting with a dash', () => {
  it('are reachable over HTTP and SSH (git only ever sees the absolute storage path)', async () => {
    const name = uniqueName('-dash');
    const res = await api.post(`/orgs/${org}/repos`, { basic: people.orgOwner, body: { name, auto_init: true } });
    expect(res.status, res.text).toBe(201);
    for (const transport of ['http', 'ssh'] as const) {
      const { url, env } = remote(transport, 'orgOwner', name);
      const dir = ws.dir('dash');
      await git.ok(['clone', '-q', url, dir], { env });
      const sha = await commitAll(git, dir, { [`${transport}.txt`]: transport }, `over ${transport}`);
      await git.ok(['push', '-q', 'origin', 'HEAD:main'], { cwd: dir, env });
      expect(await branchSha(org, name, 'main')).toBe(sha);
    }
  });
});

// ---- hostile input -------------------------------------------------------------------------------------------------

describe('hostile input never runs anything and never answers 500', () => {
  const evilCommands = () => [
    `git-upload-pack '--upload-pack=touch ${MARKER()}'`,
    `git-upload-pack '${org}/--upload-pack=x'`,
    `git-upload-pack '${org}/${open}.git' '--upload-pack=touch ${MARKER()}'`,
    `git-upload-pack '${org}/${open}.git'; touch ${MARKER()}`,
    `git-upload-pack '${org}/$(touch ${MARKER()})'`,
    `git-upload-pack '${org}/\`touch ${MARKER()}\`'`,
    `touch ${MARKER()}`,
    `sh -c 'touch ${MARKER()}'`,
    `git-upload-archive '${org}/${open}.git'`,
    `git-upload-pack '../../etc/passwd'`,
    `git-upload-pack '/${org}/../${org}/${open}.git'`,
    `git-upload-pack '${org}/${open}.git/../../..'`,
    `git-upload-pack '/-x/${open}.git'`,
    `git-upload-pack '${org}/.git'`,
    `git-upload-pack '${org}'`,
    `git-receive-pack '${org}/${open}.git.git'`,
    `GIT_DIR=/ git-upload-pack '${org}/${open}.git'`,
  ];

  it('over SSH: option-like, traversal and shell commands are refused (exit 1, a message on stderr)', async () => {
    for (const command of evilCommands()) {
      const r = await sshExec(keys.orgOwner.privateKeyPath, suite.sshPort, command, home);
      expect(r.code, `${command}: ${r.stderr}`).toBe(1);
      expect(r.stderr, command).toMatch(/^Cairn: (Invalid command|Invalid repository path|Repository .* does not exist)/m);
      expect(r.stdout, command).toBe('');
    }
    // Odd but well-formed names simply do not exist.
    for (const command of [
      `git-upload-pack '${org}/nope.git'`,
      `git-upload-pack 'no-such-owner/${open}.git'`,
      `git-receive-pack '${org}/--help'`,
      `git-upload-pack '${org}/-n'`,
    ]) {
      const r = await sshExec(keys.orgOwner.privateKeyPath, suite.sshPort, command, home);
      expect(r.code, command).toBe(1);
      expect(r.stderr, command).toMatch(/does not exist or you do not have access to it/);
    }
    expect(existsSync(MARKER())).toBe(false);
  });

  it('over SSH with the real git: --upload-pack / --receive-pack are refused by the server', async () => {
    const { url, env } = remote('ssh', 'orgOwner', open);
    const dir = ws.dir('evil-clone');
    const clone = await git.try(['clone', '--upload-pack', `touch ${MARKER()}; git-upload-pack`, url, dir], { env });
    expectRefused(clone, /Invalid command/, 'clone with --upload-pack');
    const push = await git.try(['push', '--receive-pack', `touch ${MARKER()}; git-receive-pack`, url, 'HEAD:refs/heads/evil'], {
      cwd: work[open].dir,
      env,
    });
    expectRefused(push, /Invalid command/, 'push with --receive-pack');
    expect(existsSync(MARKER())).toBe(false);
    expect(await branchSha(org, open, 'evil')).toBeNull();
  });

  it('over HTTP: --upload-pack is a no-op, and odd owner/repository paths get clean 4xx answers', async () => {
    const dir = ws.dir('evil-http');
    const r = await git.try(['clone', '-q', '--upload-pack', `touch ${MARKER()}`, httpCloneUrl(suite.baseUrl, org, open), dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(MARKER())).toBe(false);

    const paths = [
      `${org}/--upload-pack=touch%20x.git`,
      `${org}/..%2F..%2F..%2Fetc.git`,
      `..%2F${org}/${open}.git`,
      `%2E%2E/%2E%2E.git`,
      `${org}/%2E%2E.git`,
      `${org}/.git`,
      `${org}/${open}.git.git`,
      `-x/${open}.git`,
      `${org}%00/${open}.git`,
      `${org}/${open}%00.git`,
      `${org}/${open}%0A.git`,
      `${org}/${'a'.repeat(300)}.git`,
      `${'a'.repeat(300)}/${open}.git`,
      `${org}/%ZZ.git`,
    ];
    for (const auth of [{}, { authorization: people.orgOwner.basic }] as Record<string, string>[]) {
      for (const p of paths) {
        for (const [method, suffix, body] of [
          ['GET', '/info/refs?service=git-upload-pack'],
          ['GET', '/info/refs?service=git-receive-pack'],
          ['POST', '/git-upload-pack', '0000'],
          ['POST', '/git-receive-pack', '0000'],
        ] as const) {
          const res = await fetch(`${suite.baseUrl}/${p}${suffix}`, {
            method,
            headers: { ...auth, ...(body ? { 'content-type': `application/x-${suffix.slice(1)}-request` } : {}) },
            body,
          });
          const what = `${method} /${p}${suffix} ${'authorization' in auth ? 'as owner' : 'anonymous'}: ${res.status}`;
          expect(res.status, what).toBeGreaterThanOrEqual(400);
          expect(res.status, what).toBeLessThan(500);
          await res.arrayBuffer();
        }
      }
    }
    expect(existsSync(MARKER())).toBe(false);
  });

  it('over HTTP: a garbage pack and a wrong content type are refused without changing anything', async () => {
    const before = await mainSha(open);
    const garbage = await fetch(`${suite.baseUrl}/${org}/${open}.git/git-receive-pack`, {
      method: 'POST',
      headers: { authorization: people.orgOwner.basic, 'content-type': 'application/x-git-receive-pack-request' },
      body: `0094${'0'.repeat(40)} ${'1'.repeat(40)} refs/heads/main\0 report-status\n0000PACKgarbage`,
    });
    expect(garbage.status).toBeLessThan(500);
    await garbage.arrayBuffer();
    const wrongType = await fetch(`${suite.baseUrl}/${org}/${open}.git/git-upload-pack`, {
      method: 'POST',
      headers: { authorization: people.orgOwner.basic, 'content-type': 'text/plain' },
      body: '0000',
    });
    expect(wrongType.status).toBeGreaterThanOrEqual(400);
    expect(wrongType.status).toBeLessThan(500);
    await wrongType.arrayBuffer();
    expect(await mainSha(open)).toBe(before);
    expect(existsSync(bareRepoPath(suite.dataDir, org, open))).toBe(true);
  });
});
