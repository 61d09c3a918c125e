/**
 * Every path that creates, moves or deletes a ref against every branch-protection rule (issue 25, findings 2 and 3),
 * through the gateway with real git: a write collaborator outside a protected branch's push allow-list, or without
 * force-push rights, is refused on each path — pushes over smart HTTP, the branch API (create, delete, rename), the
 * contents API, pull-request merges (approvals, statuses), delete-after-merge and the pull-request update (merge = a
 * push to the head, rebase = a force push) — and the ref has not moved afterwards. Control rows show the same writer
 * allowed where the rule allows, so a refusal is the rule's doing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_SUITE_APPS, commitAll, gitRunner, httpCloneUrl, redact, workspace, type Git } from '../support/git.js';
import { createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { startTestSuite, type TestSuite } from '../support/suite.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

let suite: TestSuite;
let api: HttpClient;
const ws = workspace('cairn-e2e-refprot-');
let git: Git;
let owner: Account;
let writer: Account;
let repo: string;
let ownerDir: string;
let writerDir: string;

const path = (p: string) => `/repos/${owner.username}/${repo}${p}`;
const url = (who: Account) => httpCloneUrl(suite.baseUrl, owner.username, repo, { username: who.username, secret: who.password });
const b64 = (t: string) => Buffer.from(t).toString('base64');

/** A branch's head, or null when it does not exist. */
async function headOf(branch: string): Promise<string | null> {
  const res = await api.get(path(`/branches/${encodeURIComponent(branch)}`), { basic: owner });
  return res.status === 200 ? (res.body.commit.id as string) : null;
}

async function openPull(head: string, base: string): Promise<number> {
  const res = await api.post(path('/pulls'), { basic: writer, body: { head, base, title: `${head} into ${base}` } });
  expect(res.status, res.text).toBe(201);
  return res.body.number as number;
}

/** What one row did: a refusal (status or git's exit) or an acceptance. */
type Outcome = { refused: boolean; detail: string };
const byStatus = (res: { status: number; text: string }, allowed: number[]): Outcome => ({
  refused: !allowed.includes(res.status), detail: `${res.status} ${res.text.slice(0, 200)}`,
});

interface Row {
  path: string;
  rule: string;
  /** Refused (the write must not happen) or allowed (a control row). */
  expect: 'refused' | 'allowed';
  /** The branch the row would move: compared before and after. */
  branch: string;
  act: () => Promise<Outcome>;
  /** Why a refused row is refused (the answer or git's output names the rule). */
  because?: RegExp;
  /** Extra checks on an allowed row (the branch moved as asked). */
  after?: (before: string | null, now: string | null) => void;
}

beforeAll(async () => {
  suite = await startTestSuite({ apps: [...REPO_SUITE_APPS, 'merge-check-worker'], env: { ...FAST_PASSWORD_HASH } });
  api = http(suite);
  git = gitRunner(ws.dir('home'));
  const admin = await suite.createAdmin();
  owner = await createUser(suite, admin, uniqueName('rpowner'));
  writer = await createUser(suite, admin, uniqueName('rpwriter'));
  repo = uniqueName('refs');
  expect((await api.post('/user/repos', { basic: owner, body: { name: repo, auto_init: true } })).status).toBe(201);
  expect((await api.put(path(`/collaborators/${writer.username}`), { basic: owner, body: { permission: 'write' } })).status).toBe(204);

  // Branches diverged from main (so updating them merges or rebases real commits), pushed by the owner before any rule.
  ownerDir = ws.dir('owner');
  await git.ok(['clone', '-q', url(owner), ownerDir]);
  const root = await git.ok(['rev-parse', 'HEAD'], { cwd: ownerDir });
  for (const branch of ['release', 'stable', 'feature', 'landing', 'spare']) {
    await git.ok(['checkout', '-q', '-B', branch, root], { cwd: ownerDir });
    if (!['landing', 'spare'].includes(branch)) await commitAll(git, ownerDir, { [`${branch}.txt`]: `${branch}\n` }, `on ${branch}`);
    await git.ok(['push', '-q', url(owner), `${branch}:${branch}`], { cwd: ownerDir });
  }
  await git.ok(['checkout', '-q', '-B', 'main', root], { cwd: ownerDir });
  await commitAll(git, ownerDir, { 'main.txt': 'main moved on\n' }, 'main moves on');
  await git.ok(['push', '-q', url(owner), 'main:main'], { cwd: ownerDir });

  const rules = [
    // Push allow-list: only the owner pushes to release* (deletion is refused for every protected branch).
    { rule_name: 'release*', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [owner.username] },
    // Writers push to stable, nobody force-pushes.
    { rule_name: 'stable', enable_push: true },
    // main: merges need an approval and a green `ci`.
    { rule_name: 'main', enable_push: true, required_approvals: 1, enable_status_check: true, status_check_contexts: ['ci'] },
  ];
  for (const body of rules) {
    const res = await api.post(path('/branch_protections'), { basic: owner, body });
    expect(res.status, res.text).toBe(201);
  }
  writerDir = ws.dir('writer');
  await git.ok(['clone', '-q', url(writer), writerDir]);
}, 300_000);

afterAll(async () => {
  await suite?.stop();
  ws.cleanup();
});

describe('every ref write goes through the one protection decision', () => {
  it('refuses each path under each rule, and allows the control rows', async () => {
    const push = async (refspec: string[]): Promise<Outcome> => {
      const r = await git.try(['push', url(writer), ...refspec], { cwd: writerDir });
      return { refused: r.code !== 0, detail: redact(r.stderr) };
    };
    const writerCommitOn = async (branch: string, file: string) => {
      await git.ok(['fetch', '-q', url(writer), branch], { cwd: writerDir });
      await git.ok(['checkout', '-q', '-B', `w-${branch}`, 'FETCH_HEAD'], { cwd: writerDir });
      return commitAll(git, writerDir, { [file]: `${file}\n` }, `writer on ${branch}`);
    };
    const releasePull = await openPull('release', 'main');
    const stablePull = await openPull('stable', 'main');
    const landingPull = await openPull('release', 'landing');
    const featurePull = await openPull('feature', 'main');

    const rows: Row[] = [
      // ---- push allow-list (release*) ----
      { path: 'git push (fast-forward)', rule: 'push allow-list', expect: 'refused', branch: 'release', because: /Not allowed to push/,
        act: async () => push([`${await writerCommitOn('release', 'w1.txt')}:refs/heads/release`]) },
      { path: 'git push (delete)', rule: 'deletion', expect: 'refused', branch: 'release', because: /protected from deletion/, act: () => push([':refs/heads/release']) },
      { path: 'POST /branches (create)', rule: 'push allow-list', expect: 'refused', branch: 'release-2', because: /Not allowed to push/,
        act: async () => byStatus(await api.post(path('/branches'), { basic: writer, body: { new_branch_name: 'release-2', old_ref_name: 'main' } }), [201]) },
      { path: 'PATCH /branches/{b} (rename to a protected name)', rule: 'push allow-list', expect: 'refused', branch: 'release-3', because: /Not allowed to push/,
        act: async () => byStatus(await api.patch(path('/branches/spare'), { basic: writer, body: { name: 'release-3' } }), [204]) },
      { path: 'POST /contents (commit)', rule: 'push allow-list', expect: 'refused', branch: 'release', because: /Not allowed to push/,
        act: async () => byStatus(await api.post(path('/contents/w2.txt'), { basic: writer, body: { content: b64('x\n'), branch: 'release', message: 'w2' } }), [201]) },
      { path: 'POST /pulls/{n}/update?style=merge', rule: 'push allow-list', expect: 'refused', branch: 'release', because: /Not allowed to push/,
        act: async () => byStatus(await api.post(path(`/pulls/${releasePull}/update?style=merge`), { basic: writer }), [200]) },
      { path: 'POST /pulls/{n}/update?style=rebase', rule: 'push allow-list', expect: 'refused', branch: 'release', because: /force push|Not allowed to push/,
        act: async () => byStatus(await api.post(path(`/pulls/${releasePull}/update?style=rebase`), { basic: writer }), [200]) },
      { path: 'DELETE /branches/{b}', rule: 'deletion', expect: 'refused', branch: 'release', because: /protected from deletion/,
        act: async () => byStatus(await api.delete(path('/branches/release'), { basic: writer }), [204]) },
      { path: 'merge with delete_branch_after_merge', rule: 'deletion', expect: 'refused', branch: 'release', because: /protected from deletion/,
        act: async () => {
          // The other pull request from release is closed first: an open one would keep the branch anyway.
          expect((await api.patch(path(`/pulls/${releasePull}`), { basic: writer, body: { state: 'closed' } })).status).toBe(201);
          return byStatus(await api.post(path(`/pulls/${landingPull}/merge`), {
            basic: writer, body: { Do: 'merge', delete_branch_after_merge: true },
          }), [200]);
        } },
      // ---- force push (stable) ----
      { path: 'git push --force (rewrite)', rule: 'force push', expect: 'refused', branch: 'stable', because: /protected from force push/,
        act: async () => {
          await git.ok(['fetch', '-q', url(writer), 'stable'], { cwd: writerDir });
          await git.ok(['checkout', '-q', '-B', 'w-rewrite', 'FETCH_HEAD~1'], { cwd: writerDir });
          const rewritten = await commitAll(git, writerDir, { 'rewritten.txt': 'x\n' }, 'rewritten');
          return push(['--force', `${rewritten}:refs/heads/stable`]);
        } },
      { path: 'POST /pulls/{n}/update?style=rebase', rule: 'force push', expect: 'refused', branch: 'stable', because: /protected from force push/,
        act: async () => byStatus(await api.post(path(`/pulls/${stablePull}/update?style=rebase`), { basic: writer }), [200]) },
      { path: 'POST /pulls/{n}/update?style=merge (control: a push, allowed)', rule: 'force push', expect: 'allowed', branch: 'stable',
        act: async () => byStatus(await api.post(path(`/pulls/${stablePull}/update?style=merge`), { basic: writer }), [200]),
        after: (before, now) => expect(now).not.toBe(before) },
      { path: 'DELETE /branches/{b}', rule: 'deletion', expect: 'refused', branch: 'stable', because: /protected from deletion/,
        act: async () => byStatus(await api.delete(path('/branches/stable'), { basic: writer }), [204]) },
      // ---- required approvals and statuses (main) ----
      { path: 'POST /pulls/{n}/merge (no approval, no status)', rule: 'approvals and statuses', expect: 'refused', branch: 'main', because: /status checks|approvals/,
        act: async () => byStatus(await api.post(path(`/pulls/${featurePull}/merge`), { basic: writer, body: { Do: 'merge' } }), [200]) },
      { path: 'POST /pulls/{n}/merge (approved, ci green: control)', rule: 'approvals and statuses', expect: 'allowed', branch: 'main',
        act: async () => {
          const head = (await headOf('feature'))!;
          expect((await api.post(path(`/statuses/${head}`), { basic: owner, body: { state: 'success', context: 'ci' } })).status).toBe(201);
          const review = await api.post(path(`/pulls/${featurePull}/reviews`), { basic: owner, body: { event: 'APPROVED', body: 'ok' } });
          expect(review.status, review.text).toBe(200);
          return byStatus(await api.post(path(`/pulls/${featurePull}/merge`), { basic: writer, body: { Do: 'merge' } }), [200]);
        },
        after: (before, now) => expect(now).not.toBe(before) },
      // ---- a branch the rules do not cover (control) ----
      { path: 'DELETE /branches/{b} (control: unprotected)', rule: 'none', expect: 'allowed', branch: 'landing-copy',
        act: async () => {
          expect((await api.post(path('/branches'), { basic: writer, body: { new_branch_name: 'landing-copy', old_ref_name: 'landing' } })).status).toBe(201);
          return byStatus(await api.delete(path('/branches/landing-copy'), { basic: writer }), [204]);
        },
        after: (_before, now) => expect(now).toBeNull() },
    ];

    const table: string[] = [];
    const wrong: string[] = [];
    for (const row of rows) {
      const before = await headOf(row.branch);
      // A row whose set-up fails (an earlier bypass removed its branch) is reported, and the table goes on.
      const outcome = await row.act().catch((err: Error): Outcome => ({ refused: false, detail: `failed: ${err.message.slice(0, 300)}` }));
      const now = await headOf(row.branch);
      const got = outcome.refused ? 'refused' : 'allowed';
      table.push(`${row.rule.padEnd(24)} ${row.path.padEnd(62)} ${got}`);
      if (got !== row.expect) wrong.push(`${row.path} under ${row.rule}: ${got} (${outcome.detail})`);
      if (row.expect === 'refused') {
        if (outcome.refused && row.because && !row.because.test(outcome.detail)) {
          wrong.push(`${row.path} under ${row.rule}: refused for another reason (${outcome.detail})`);
        }
        if (now !== before) wrong.push(`${row.path} under ${row.rule}: ${row.branch} moved from ${before} to ${now}`);
      } else {
        try {
          row.after?.(before, now);
        } catch (err) {
          wrong.push(`${row.path} under ${row.rule}: ${(err as Error).message}`);
        }
      }
    }
    console.log(`ref protection table:\n${table.join('\n')}`);
    expect(wrong).toEqual([]);
  });
});
