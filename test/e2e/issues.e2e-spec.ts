/**
 * Issues, comments and issue locking end to end: the whole suite started like `npm start`, driven over HTTP with
 * plain requests and with `@octokit/rest` (`issues.lock` / `issues.unlock`, exactly as GitHub clients call them).
 */
import { Octokit } from '@octokit/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';

describe('issues and locking', () => {
  let suite: TestSuite;
  let owner: Account;
  let writer: Account;
  let reader: Account;
  let ownerToken: string;
  let writerToken: string;
  let readerToken: string;
  let repo: string;
  const api = () => http(suite);
  const path = (p: string) => `/repos/${owner.username}/${repo}${p}`;

  beforeAll(async () => {
    suite = await sharedTestSuite();
    const admin = await suite.createAdmin();
    owner = await createUser(suite, admin, uniqueName('owner'));
    writer = await createUser(suite, admin, uniqueName('writer'));
    reader = await createUser(suite, admin, uniqueName('reader'));
    [ownerToken, writerToken, readerToken] = await Promise.all([
      createToken(suite, owner),
      createToken(suite, writer),
      createToken(suite, reader),
    ]);
    repo = uniqueName('tracker');
    const created = await api().post('/user/repos', { token: ownerToken, body: { name: repo, auto_init: true } });
    expect(created.status, created.text).toBe(201);
    const collab = await api().put(path(`/collaborators/${writer.username}`), { token: ownerToken, body: { permission: 'write' } });
    expect(collab.status, collab.text).toBe(204);
  });

  afterAll(async () => {
    await suite?.stop();
  });

  async function newIssue(token = readerToken, title = 'Something is off') {
    const res = await api().post(path('/issues'), { token, body: { title, body: 'details' } });
    expect(res.status, res.text).toBe(201);
    return res.body as { number: number; id: number };
  }

  it('opens, lists, reads and edits issues with Gitea\'s shapes', async () => {
    const issue = await newIssue(readerToken, 'First');
    const got = await api().get(path(`/issues/${issue.number}`));
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      number: issue.number,
      title: 'First',
      state: 'open',
      user: { login: reader.username },
      is_locked: false,
      locked: false,
      active_lock_reason: null,
      pull_request: null,
    });
    const list = await api().get(path('/issues?state=all&type=issues&limit=1'));
    expect(list.status).toBe(200);
    expect(Number(list.headers.get('x-total-count'))).toBeGreaterThanOrEqual(1);
    const edited = await api().patch(path(`/issues/${issue.number}`), { token: readerToken, body: { title: 'First (edited)' } });
    expect(edited.status, edited.text).toBe(201);
    expect(edited.body.title).toBe('First (edited)');
    const stranger = await api().patch(path(`/issues/${issue.number}`), { token: writerToken, body: { state: 'closed' } });
    expect(stranger.status, stranger.text).toBe(201);
    expect(stranger.body.state).toBe('closed');
    const anonymous = await api().post(path('/issues'), { body: { title: 'x' } });
    expect(anonymous.status).toBe(401);
    const invalid = await api().post(path('/issues'), { token: readerToken, body: { title: '' } });
    expect(invalid.status).toBe(422);
  });

  it('locks and unlocks with Octokit: 204 each time, repeats change nothing, the issue JSON carries the lock', async () => {
    const issue = await newIssue();
    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: writerToken });
    const params = { owner: owner.username, repo, issue_number: issue.number };

    const locked = await octokit.issues.lock({ ...params, lock_reason: 'too heated' });
    expect(locked.status).toBe(204);
    expect((await octokit.issues.lock(params)).status).toBe(204);
    const got = await octokit.issues.get(params);
    expect(got.data).toMatchObject({ locked: true, active_lock_reason: 'too heated' });
    expect((got.data as unknown as { is_locked: boolean }).is_locked).toBe(true);

    expect((await octokit.issues.unlock(params)).status).toBe(204);
    expect((await octokit.issues.unlock(params)).status).toBe(204);
    const after = await octokit.issues.get(params);
    expect(after.data).toMatchObject({ locked: false, active_lock_reason: null });

    // One lock and one unlock on the timeline, both credited to the caller (not the repository owner).
    const timeline = await api().get(path(`/issues/${issue.number}/timeline`), { token: ownerToken });
    expect(timeline.status).toBe(200);
    const events = (timeline.body as { type: string; user: { login: string } }[]).filter((t) => t.type === 'lock' || t.type === 'unlock');
    expect(events.map((e) => [e.type, e.user.login])).toEqual([
      ['lock', writer.username],
      ['unlock', writer.username],
    ]);

    // Paginated as Gitea's: `limit=1&page=2` is the second entry, the total in X-Total-Count; `limit=0` the default size.
    const all = timeline.body as { id: number }[];
    const second = await api().get(path(`/issues/${issue.number}/timeline?page=2&limit=1`), { token: ownerToken });
    expect(second.status).toBe(200);
    expect((second.body as { id: number }[]).map((t) => t.id)).toEqual([all[1].id]);
    expect(second.headers.get('x-total-count')).toBe(String(all.length));
    const sdkDefault = await api().get(path(`/issues/${issue.number}/timeline?page=1&limit=0`), { token: ownerToken });
    expect((sdkDefault.body as { id: number }[]).map((t) => t.id)).toEqual(all.slice(0, 30).map((t) => t.id));
  });

  it('locks with plain HTTP whether the body is absent, empty, `null`, or names a reason in any case', async () => {
    for (const variant of ['absent', 'empty', 'null', 'reason'] as const) {
      const issue = await newIssue();
      const headers: Record<string, string> = variant === 'absent' ? {} : { 'content-type': 'application/json' };
      const body = variant === 'absent' ? undefined : variant === 'empty' ? '' : variant === 'null' ? 'null' : '{"lock_reason":"Off-Topic"}';
      const res = await fetch(suite.api(path(`/issues/${issue.number}/lock`)), {
        method: 'PUT',
        headers: { ...headers, authorization: `token ${writerToken}` },
        body,
      });
      expect(res.status, `${variant}: ${await res.clone().text()}`).toBe(204);
      expect(await res.text()).toBe('');
      const got = await api().get(path(`/issues/${issue.number}`));
      expect(got.body).toMatchObject({ is_locked: true, locked: true, active_lock_reason: variant === 'reason' ? 'off-topic' : null });
    }
  });

  it('answers 422 with the accepted reasons, 403 to readers, 404 for unknown issues, 401 without a token', async () => {
    const issue = await newIssue();
    const bad = await api().put(path(`/issues/${issue.number}/lock`), { token: writerToken, body: { lock_reason: 'boring' } });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.body.message).toContain('boring');
    expect(bad.body.errors).toEqual(expect.arrayContaining(['off-topic', 'too heated', 'resolved', 'spam']));

    const octokit = new Octokit({ baseUrl: `${suite.rootUrl}api/v1`, auth: readerToken });
    await expect(octokit.issues.lock({ owner: owner.username, repo, issue_number: issue.number })).rejects.toMatchObject({ status: 403 });
    const readerUnlock = await api().delete(path(`/issues/${issue.number}/lock`), { token: readerToken });
    expect(readerUnlock.status).toBe(403);

    expect((await api().put(path('/issues/99999/lock'), { token: writerToken })).status).toBe(404);
    expect((await api().delete(path('/issues/99999/lock'), { token: writerToken })).status).toBe(404);
    expect((await api().put(path(`/issues/${issue.number}/lock`))).status).toBe(401);
    const readOnly = await createToken(suite, writer, ['read:issue']);
    expect((await api().put(path(`/issues/${issue.number}/lock`), { token: readOnly })).status).toBe(403);
    const still = await api().get(path(`/issues/${issue.number}`));
    expect(still.body.is_locked).toBe(false);
  });

  it('refuses comments from readers on a locked issue (403 saying so); writers may comment; after unlocking readers may again', async () => {
    const issue = await newIssue();
    expect((await api().put(path(`/issues/${issue.number}/lock`), { token: writerToken })).status).toBe(204);
    const refused = await api().post(path(`/issues/${issue.number}/comments`), { token: readerToken, body: { body: 'me too' } });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.message).toMatch(/locked/i);
    const byWriter = await api().post(path(`/issues/${issue.number}/comments`), { token: writerToken, body: { body: 'calm down' } });
    expect(byWriter.status, byWriter.text).toBe(201);
    expect((await api().delete(path(`/issues/${issue.number}/lock`), { token: ownerToken })).status).toBe(204);
    const again = await api().post(path(`/issues/${issue.number}/comments`), { token: readerToken, body: { body: 'thanks' } });
    expect(again.status, again.text).toBe(201);
    const comments = await api().get(path(`/issues/${issue.number}/comments`));
    expect((comments.body as { body: string }[]).map((c) => c.body)).toEqual(['calm down', 'thanks']);
    const edit = await api().patch(path(`/issues/comments/${again.body.id}`), { token: readerToken, body: { body: 'thanks!' } });
    expect(edit.status, edit.text).toBe(200);
    const foreign = await api().patch(path(`/issues/comments/${byWriter.body.id}`), { token: readerToken, body: { body: 'x' } });
    expect(foreign.status).toBe(403);
    expect((await api().delete(path(`/issues/comments/${again.body.id}`), { token: readerToken })).status).toBe(204);
  });

  it('refuses a reader editing their own comment while the issue is locked (403); writers may; the reader may still delete it', async () => {
    const issue = await newIssue();
    const mine = await api().post(path(`/issues/${issue.number}/comments`), { token: readerToken, body: { body: 'before the lock' } });
    expect(mine.status, mine.text).toBe(201);
    const kept = await api().post(path(`/issues/${issue.number}/comments`), { token: readerToken, body: { body: 'second' } });
    expect((await api().put(path(`/issues/${issue.number}/lock`), { token: writerToken })).status).toBe(204);

    const edit = await api().patch(path(`/issues/comments/${mine.body.id}`), { token: readerToken, body: { body: 'rewritten' } });
    expect(edit.status, edit.text).toBe(403);
    expect(edit.body.message).toBe('the issue is locked: only users with write access to the repository can edit comments');
    expect((await api().get(path(`/issues/comments/${mine.body.id}`))).body.body).toBe('before the lock');

    const byWriter = await api().patch(path(`/issues/comments/${mine.body.id}`), { token: writerToken, body: { body: 'moderated' } });
    expect(byWriter.status, byWriter.text).toBe(200);
    // Deleting one's own comment adds nothing to the conversation: allowed while locked, as in Gitea.
    expect((await api().delete(path(`/issues/comments/${kept.body.id}`), { token: readerToken })).status).toBe(204);

    expect((await api().delete(path(`/issues/${issue.number}/lock`), { token: ownerToken })).status).toBe(204);
    const after = await api().patch(path(`/issues/comments/${mine.body.id}`), { token: readerToken, body: { body: 'after the lock' } });
    expect(after.status, after.text).toBe(200);
  });
});
