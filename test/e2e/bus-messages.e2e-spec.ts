/**
 * Messages between the gateway and the services, on the built apps. Requests and replies larger than one NATS
 * message (1 MiB) (issue 9, item 2): each once failed (504 after the 10 s timeout, or 500); they must now succeed,
 * and one over the suite's `[cairn] RPC_MAX_MESSAGE_SIZE` must be refused with 413 at the gateway before anything
 * is forwarded. Deadlines (item 11): a write whose caller's deadline passed before repo-service took it up is not done.
 */
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { IssueSubjects } from '@cairn/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { REPO_SUITE_APPS, commitAll, gitRunner, httpCloneUrl, workspace } from '../support/git.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

const MiB = 1024 * 1024;
/** Small enough to prove the 413 with a few megabytes, large enough for every legitimate case below. */
const RPC_MAX_MESSAGE_SIZE = 6 * MiB;
const ENTRIES = 3_000;
const names = Array.from({ length: ENTRIES }, (_, i) => `file-${String(i).padStart(4, '0')}.txt`);

/** Paths of files that do not exist, `bytes` of JSON or a little more. */
function padding(bytes: number, pathLength: number): string[] {
  const count = Math.ceil(bytes / (pathLength + 3));
  return Array.from({ length: count }, (_, i) => `missing/${String(i).padStart(pathLength - 8, 'p')}`);
}

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-large-');
let owner: Account;
let base: string;

beforeAll(async () => {
  suite = await startTestSuite({
    apps: REPO_SUITE_APPS,
    env: { ...FAST_PASSWORD_HASH, CAIRN__CAIRN__RPC_MAX_MESSAGE_SIZE: String(RPC_MAX_MESSAGE_SIZE) },
    // The deadline test watches repo-service's subject and replays the gateway's message as one client: no service
    // login may do both (least privilege, deploy/nats/accounts.conf), so this file's server stays open even under
    // CAIRN_E2E_NATS_AUTH=1 (nats-accounts.e2e-spec.ts covers the logins).
    natsAuth: false,
  });
  api = http(suite);
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('owner'));
  const repo = uniqueName('large');
  expect((await api.post('/user/repos', { basic: owner, body: { name: repo } })).status).toBe(201);
  base = `/repos/${owner.username}/${repo}`;
  const git = gitRunner(ws.dir('home'));
  const dir = ws.dir('work');
  await git.ok(['init', '-q', '-b', 'main', dir]);
  await commitAll(git, dir, Object.fromEntries(names.map((n, i) => [`many/${n}`, `${i}\n`])), 'many files');
  await git.ok(['push', '-q', httpCloneUrl(suite.baseUrl, owner.username, repo, { username: owner.username, secret: owner.password }), 'main'], { cwd: dir });
});

afterAll(async () => {
  ws.cleanup();
  await suite?.stop();
});

describe('replies over 1 MiB', () => {
  it(`lists a directory of ${ENTRIES} entries to an anonymous visitor, every entry (as Gitea)`, async () => {
    const res = await api.get(`${base}/contents/many`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.text.length).toBeGreaterThan(MiB);
    const entries = res.body as Array<{ name: string; path: string; type: string }>;
    expect(entries.map((e) => e.name)).toEqual(names);
    expect(entries.every((e, i) => e.type === 'file' && e.path === `many/${names[i]}`)).toBe(true);
  });

  it('lists issues whose two bodies of 512 KB make the reply larger than one message', async () => {
    // 256 Ki characters (the body limit) of two UTF-8 bytes each: 512 KiB per body.
    const bodies = ['é'.repeat(256 * 1024), 'ß'.repeat(256 * 1024)];
    expect(bodies.map((b) => Buffer.byteLength(b))).toEqual([512 * 1024, 512 * 1024]);
    for (const [i, body] of bodies.entries()) {
      const created = await api.post(`${base}/issues`, { basic: owner, body: { title: `big ${i}`, body } });
      expect(created.status, created.text.slice(0, 300)).toBe(201);
    }
    for (const who of [{}, { basic: owner }]) {
      const res = await api.get(`${base}/issues?state=open&type=issues`, who);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      expect(Buffer.byteLength(res.text)).toBeGreaterThan(MiB);
      const byTitle = new Map((res.body as Array<{ title: string; body: string }>).map((i) => [i.title, i.body]));
      expect(byTitle.get('big 0')).toBe(bodies[0]);
      expect(byTitle.get('big 1')).toBe(bodies[1]);
    }
  });
});

describe('requests over 1 MiB', () => {
  it('answers a 1.2 MB file-contents body (the first DEFAULT_PAGING_NUM files, as Gitea)', async () => {
    const files = names.map((n) => `many/${n}`);
    files.push(...padding(1.2 * 1000 * 1000 - JSON.stringify({ files }).length, 200));
    expect(JSON.stringify({ files }).length).toBeGreaterThan(1.2 * 1000 * 1000);
    const res = await api.post(`${base}/file-contents`, { basic: owner, body: { files } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const items = res.body as Array<{ path: string; content: string } | null>;
    expect(items.length).toBeGreaterThan(0);
    expect(items.map((e) => e?.path)).toEqual(files.slice(0, items.length));
    expect(Buffer.from(items[0]!.content, 'base64').toString()).toBe('0\n');
  });

  it('refuses a request over RPC_MAX_MESSAGE_SIZE with 413 and a message, before any service sees it', async () => {
    const files = padding(RPC_MAX_MESSAGE_SIZE + 1024, 500);
    const res = await api.post(`${base}/file-contents`, { basic: owner, body: { files } });
    expect(res.status, res.text.slice(0, 300)).toBe(413);
    expect(res.body.message).toMatch(/^the request to repo\.file-contents\.get of \d+ bytes exceeds the largest message the services exchange \(\d+ bytes/);
  });
});

describe('deadlines', () => {
  let nc: NatsConnection;
  afterAll(async () => {
    await nc?.close();
  });

  it("does not create an issue whose request arrives after the caller's deadline", async () => {
    nc = await connect({ servers: suite.env.NATS_URL });
    // The gateway's own message for a real issue creation, as repo-service received it (a plain subscriber sees it too).
    const seen = nc.subscribe(IssueSubjects.create, { max: 1 });
    await nc.flush();
    const first = await api.post(`${base}/issues`, { basic: owner, body: { title: 'in time' } });
    expect(first.status, first.text).toBe(201);
    let sent: { pattern: string; data: { body: { title: string } } } | undefined;
    for await (const m of seen) sent = m.json();
    expect(sent?.data.body.title).toBe('in time');

    const replay = async (title: string, deadline: number) => {
      const h = natsHeaders();
      h.set('cairn-deadline', String(deadline));
      const data = { ...sent!.data, body: { ...sent!.data.body, title } };
      const reply = await nc.request(IssueSubjects.create, JSON.stringify({ pattern: sent!.pattern, data, id: title }), { headers: h, timeout: 20_000 });
      return reply.json() as { response?: { title: string }; err?: { code: string; message: string } };
    };
    // Delayed past its deadline (buffered while a client reconnected, a busy process): refused, nothing written.
    const late = await replay('too late', Date.now() - 1_000);
    expect(late.err).toMatchObject({ code: 'TIMEOUT' });
    expect(late.err?.message).toMatch(/deadline passed .* nothing was done/);
    // The same message in time is done: the deadline alone made the difference.
    const onTime = await replay('on time', Date.now() + 20_000);
    expect(onTime.err).toBeUndefined();
    expect(onTime.response?.title).toBe('on time');

    const list = await api.get(`${base}/issues?state=all&type=issues&limit=50`, { basic: owner });
    const titles = (list.body as Array<{ title: string }>).map((i) => i.title);
    expect(titles).toContain('on time');
    expect(titles).not.toContain('too late');
  });
});
