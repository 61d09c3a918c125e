/**
 * Pull-request reviews, review requests and assignees end to end (whole suite, real pushes): Gitea's shapes and rules
 * through `gitea-js` (repoCreatePullReview, repoGetAssignees, …), GitHub's client through `@octokit/rest`
 * (pulls.createReview, listReviews, requestReviewers — the `/pulls/{n}/reviews` shapes match), the refusals, and the
 * webhook events a real receiver gets.
 */
import { Octokit } from '@octokit/rest';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PullsWorld, waitFor } from '../support/pulls-world.js';
import { createToken, createUser, uniqueName, type Account } from '../support/session.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe('pull-request reviews', () => {
  const w = new PullsWorld();
  let receiver: WebhookReceiver;
  let writer: Account;
  let reader: Account;
  let writerToken: string;
  let readerToken: string;
  const gitea = (token: string) => giteaApi(w.suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    await w.start({}, { shared: true });
    const admin = await w.suite.createAdmin();
    writer = await createUser(w.suite, admin, uniqueName('writer'));
    reader = await createUser(w.suite, admin, uniqueName('reader'));
    [writerToken, readerToken] = await Promise.all([createToken(w.suite, writer), createToken(w.suite, reader)]);
    const collab = await w.api.put(w.path(`/collaborators/${writer.username}`), { token: w.token, body: { permission: 'write' } });
    expect(collab.status, collab.text).toBe(204);
    const hook = await w.api.post(w.path('/hooks'), {
      token: w.token,
      body: {
        type: 'gitea',
        active: true,
        events: ['pull_request_review', 'pull_request_review_request', 'issue_assign', 'pull_request_assign'],
        config: { url: `${receiver.url}/reviews`, content_type: 'json' },
      },
    });
    expect(hook.status, hook.text).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await w.stop();
    await receiver?.close();
  });

  it('creates, lists, submits and deletes reviews with gitea-js; approvals are official only with write access', async () => {
    await w.commitAndPush('rev-one', { 'src/one.txt': 'one\ntwo\n' }, 'add one');
    const pr = await w.open('rev-one');
    const head = await w.tip('rev-one');
    const { owner: { username: owner }, repo } = w;

    const approved = await gitea(writerToken).repos.repoCreatePullReview(owner, repo, pr.number, { event: 'APPROVED', body: 'lgtm' });
    expect(approved.status).toBe(200);
    expect(approved.data).toMatchObject({ state: 'APPROVED', body: 'lgtm', official: true, stale: false, dismissed: false, commit_id: head, user: { login: writer.username } });

    const commented = await gitea(readerToken).repos.repoCreatePullReview(owner, repo, pr.number, { event: 'COMMENT', body: 'a thought' });
    expect(commented.data).toMatchObject({ state: 'COMMENT', official: false });

    // A draft with a code comment: only its author sees it until it is submitted.
    const draft = await gitea(readerToken).repos.repoCreatePullReview(owner, repo, pr.number, {
      body: '',
      comments: [{ path: 'src/one.txt', body: 'why two?', new_position: 2 }, { path: 'src/one.txt', body: 'old side', old_position: 1 }],
    });
    expect(draft.data).toMatchObject({ state: 'PENDING', comments_count: 2 });
    const asOwner = await gitea(w.token).repos.repoListPullReviews(owner, repo, pr.number);
    expect(asOwner.data.map((r) => r.state)).toEqual(['APPROVED', 'COMMENT']);
    const asReader = await gitea(readerToken).repos.repoListPullReviews(owner, repo, pr.number);
    expect(asReader.data.map((r) => r.state)).toEqual(['APPROVED', 'COMMENT', 'PENDING']);
    expect((await w.api.get(w.path(`/pulls/${pr.number}/reviews/${draft.data.id}`), { token: w.token })).status).toBe(404);
    const comments = await gitea(readerToken).repos.repoGetPullReviewComments(owner, repo, pr.number, draft.data.id!);
    expect(comments.data).toMatchObject([
      { path: 'src/one.txt', body: 'why two?', position: 2, original_position: 0, pull_request_review_id: draft.data.id, commit_id: head },
      { path: 'src/one.txt', body: 'old side', position: 0, original_position: 1 },
    ]);
    const submitted = await gitea(readerToken).repos.repoSubmitPullReview(owner, repo, pr.number, draft.data.id!, { event: 'COMMENT', body: 'done' });
    expect(submitted.data).toMatchObject({ id: draft.data.id, state: 'COMMENT', body: 'done', comments_count: 2 });
    const again = await w.api.post(w.path(`/pulls/${pr.number}/reviews/${draft.data.id}`), { token: readerToken, body: { event: 'COMMENT', body: 'x' } });
    expect(again.status, again.text).toBe(422);
    const got = await gitea(w.token).repos.repoGetPullReview(owner, repo, pr.number, approved.data.id!);
    expect(got.data).toMatchObject({ id: approved.data.id, state: 'APPROVED' });

    // Deleting: the reviewer only (or a site admin).
    const foreign = await w.api.delete(w.path(`/pulls/${pr.number}/reviews/${commented.data.id}`), { token: writerToken });
    expect(foreign.status, foreign.text).toBe(403);
    const own = await gitea(readerToken).repos.repoDeletePullReview(owner, repo, pr.number, commented.data.id!);
    expect(own.status).toBe(204);
    expect((await w.api.get(w.path(`/pulls/${pr.number}/reviews/${commented.data.id}`), { token: readerToken })).status).toBe(404);

    // A new head makes the approval stale.
    await w.commitAndPush('rev-one', { 'src/one.txt': 'one\n2\n' }, 'second thoughts');
    await waitFor('the pull request to follow its head', async () => (await w.listed(pr.number)).head.sha !== head);
    const stale = await gitea(w.token).repos.repoGetPullReview(owner, repo, pr.number, approved.data.id!);
    expect(stale.data).toMatchObject({ stale: true, official: true });
  });

  it('refuses what Gitea refuses', async () => {
    await w.commitAndPush('rev-two', { 'two.txt': '2\n' }, 'add two');
    const pr = await w.open('rev-two');
    const reviews = w.path(`/pulls/${pr.number}/reviews`);
    const own = await w.api.post(reviews, { token: w.token, body: { event: 'APPROVED' } });
    expect(own.status, own.text).toBe(422);
    expect(own.body.message).toMatch(/approve your own pull/);
    const noBody = await w.api.post(reviews, { token: writerToken, body: { event: 'REQUEST_CHANGES' } });
    expect(noBody.status, noBody.text).toBe(422);
    const emptyComment = await w.api.post(reviews, { token: writerToken, body: { event: 'COMMENT', body: ' ' } });
    expect(emptyComment.status, emptyComment.text).toBe(422);
    const anonymous = await w.api.post(reviews, { body: { event: 'COMMENT', body: 'hi' } });
    expect(anonymous.status, anonymous.text).toBe(401);
    const badComment = await w.api.post(reviews, { token: writerToken, body: { event: 'COMMENT', comments: [{ body: 'x' }] } });
    expect(badComment.status, badComment.text).toBe(422);
    expect((await w.api.get(w.path('/pulls/999/reviews'), { token: w.token })).status).toBe(404);

    // Dismissals: repository admins, approvals and change requests only.
    const rejected = await w.api.post(reviews, { token: writerToken, body: { event: 'REQUEST_CHANGES', body: 'no' } });
    expect(rejected.status, rejected.text).toBe(200);
    const comment = await w.api.post(reviews, { token: readerToken, body: { event: 'COMMENT', body: 'hm' } });
    const dismissals = (id: number) => w.path(`/pulls/${pr.number}/reviews/${id}/dismissals`);
    const byWriter = await w.api.post(dismissals(rejected.body.id), { token: writerToken, body: { message: 'x' } });
    expect(byWriter.status, byWriter.text).toBe(403);
    expect(byWriter.body.message).toBe('Must be repo admin'); // Gitea's wording, REPO_ACCESS_NEEDS' `denied`
    const notDismissable = await w.api.post(dismissals(comment.body.id), { token: w.token, body: {} });
    expect(notDismissable.status, notDismissable.text).toBe(403);
    const dismissed = await gitea(w.token).repos.repoDismissPullReview(w.owner.username, w.repo, pr.number, rejected.body.id, { message: 'outdated' });
    expect(dismissed.data).toMatchObject({ id: rejected.body.id, dismissed: true, state: 'REQUEST_CHANGES' });
    const undismissed = await gitea(w.token).repos.repoUnDismissPullReview(w.owner.username, w.repo, pr.number, rejected.body.id);
    expect(undismissed.data).toMatchObject({ dismissed: false });

    // Closed pull requests take no approvals.
    const closed = await w.api.patch(w.path(`/pulls/${pr.number}`), { token: w.token, body: { state: 'closed' } });
    expect(closed.status, closed.text).toBe(201);
    const late = await w.api.post(reviews, { token: writerToken, body: { event: 'APPROVED' } });
    expect(late.status, late.text).toBe(422);
  });

  it('requests reviewers with Octokit; requested_reviewers follows; webhooks tell reviews and requests', async () => {
    await w.commitAndPush('rev-three', { 'three.txt': '3\n' }, 'add three');
    const pr = await w.open('rev-three');
    const octokit = new Octokit({ baseUrl: `${w.suite.rootUrl}api/v1`, auth: w.token });
    const params = { owner: w.owner.username, repo: w.repo, pull_number: pr.number };

    const requested = await octokit.pulls.requestReviewers({ ...params, reviewers: [writer.username, reader.username] });
    expect(requested.status).toBe(201);
    expect((requested.data as unknown as { state: string; user: { login: string } }[]).map((r) => [r.state, r.user.login]))
      .toEqual([['REQUEST_REVIEW', writer.username], ['REQUEST_REVIEW', reader.username]]);
    // Asking again adds nothing.
    const twice = await octokit.pulls.requestReviewers({ ...params, reviewers: [writer.username] });
    expect(twice.data).toEqual([]);
    const pull = await octokit.pulls.get(params);
    expect(pull.data.requested_reviewers?.map((u) => u.login).sort()).toEqual([writer.username, reader.username].sort());

    await octokit.pulls.removeRequestedReviewers({ ...params, reviewers: [reader.username] });
    const afterRemoval = await octokit.pulls.get(params);
    expect(afterRemoval.data.requested_reviewers?.map((u) => u.login)).toEqual([writer.username]);

    // The requested reviewer answers: no longer requested.
    const writerKit = new Octokit({ baseUrl: `${w.suite.rootUrl}api/v1`, auth: writerToken });
    const review = await writerKit.pulls.createReview({ ...params, event: 'COMMENT', body: 'looked at it' });
    expect(review.data).toMatchObject({ state: 'COMMENT', body: 'looked at it' });
    const approved = await gitea(writerToken).repos.repoCreatePullReview(w.owner.username, w.repo, pr.number, { event: 'APPROVED', body: '' });
    expect(approved.data.state).toBe('APPROVED');
    const listed = await octokit.pulls.listReviews(params);
    expect(listed.data.map((r) => r.state)).toEqual(['REQUEST_REVIEW', 'COMMENT', 'APPROVED']);
    expect((await octokit.pulls.get(params)).data.requested_reviewers).toBeNull();

    // Refusals: the poster, an unknown user, a reader choosing reviewers.
    const path = w.path(`/pulls/${pr.number}/requested_reviewers`);
    const poster = await w.api.post(path, { token: w.token, body: { reviewers: [w.owner.username] } });
    expect(poster.status, poster.text).toBe(422);
    const unknown = await w.api.post(path, { token: w.token, body: { reviewers: ['nobody-' + uniqueName()] } });
    expect(unknown.status, unknown.text).toBe(404);
    const byReader = await w.api.post(path, { token: readerToken, body: { reviewers: [writer.username] } });
    expect(byReader.status, byReader.text).toBe(422);

    // Webhooks: review_requested / review_request_removed, then the approval.
    const at = () => receiver.received.filter((d) => d.path === '/reviews' && d.json?.pull_request?.number === pr.number);
    await waitFor('the review webhooks', async () => at().some((d) => d.json.review?.type === 'pull_request_review_approved'));
    const actions = at().map((d) => [d.json.action, d.json.requested_reviewer?.login ?? d.json.review?.type]);
    expect(actions).toEqual(expect.arrayContaining([
      ['review_requested', writer.username],
      ['review_requested', reader.username],
      ['review_request_removed', reader.username],
      ['reviewed', 'pull_request_review_comment'],
      ['reviewed', 'pull_request_review_approved'],
    ]));
    const approval = at().find((d) => d.json.review?.type === 'pull_request_review_approved')!;
    expect(approval.headers['x-gitea-event-type']).toBe('pull_request_review_approved');
    expect(approval.json).toMatchObject({ sender: { login: writer.username }, repository: { name: w.repo } });
  });

  it('assignees: who can be assigned, on issues and pull requests, the assigned_by filter, assign webhooks', async () => {
    const { owner: { username: owner }, repo } = w;
    const assignable = await gitea(w.token).repos.repoGetAssignees(owner, repo);
    expect(assignable.data.map((u) => u.login).sort()).toEqual([owner, writer.username].sort());
    expect((await w.api.get(w.path('/assignees'))).status).toBe(401);

    const issue = await gitea(w.token).repos.issueCreateIssue(owner, repo, { title: 'assigned', assignees: [writer.username] });
    expect(issue.data).toMatchObject({ assignee: { login: writer.username }, assignees: [{ login: writer.username }] });
    // Readers' assignees are ignored, as Gitea.
    const byReader = await w.api.post(w.path('/issues'), { token: readerToken, body: { title: 'mine', assignees: [writer.username] } });
    expect(byReader.status, byReader.text).toBe(201);
    expect(byReader.body.assignees).toBeNull();
    const noWrite = await w.api.post(w.path('/issues'), { token: w.token, body: { title: 'x', assignee: reader.username } });
    expect(noWrite.status, noWrite.text).toBe(422);
    const unknown = await w.api.patch(w.path(`/issues/${issue.data.number}`), { token: w.token, body: { assignees: ['ghost-' + uniqueName()] } });
    expect(unknown.status, unknown.text).toBe(422);

    const filtered = await w.api.get(w.path(`/issues?state=all&assigned_by=${writer.username}`), { token: w.token });
    expect(filtered.body.map((i: { number: number }) => i.number)).toEqual([issue.data.number]);
    const edited = await gitea(w.token).repos.issueEditIssue(owner, repo, issue.data.number!, { assignees: [owner] });
    expect(edited.data.assignees?.map((u) => u.login)).toEqual([owner]);

    await w.commitAndPush('assign-pr', { 'assign.txt': 'a\n' }, 'assign');
    const pr = await w.open('assign-pr');
    const pull = await gitea(w.token).repos.repoEditPullRequest(owner, repo, pr.number, { assignees: [writer.username] });
    expect(pull.data.assignees?.map((u) => u.login)).toEqual([writer.username]);
    const listed = await w.listed(pr.number);
    expect(listed.assignee?.login).toBe(writer.username);

    const hooks = () => receiver.received.filter((d) => d.path === '/reviews' && ['issue_assign', 'pull_request_assign'].includes(String(d.headers['x-gitea-event-type'])));
    await waitFor('the assign webhooks', async () => hooks().some((d) => d.json.pull_request?.number === pr.number));
    const seen = hooks().map((d) => [d.headers['x-gitea-event-type'], d.json.action, d.json.assignee?.login]);
    expect(seen).toEqual(expect.arrayContaining([
      ['issue_assign', 'assigned', writer.username],
      ['issue_assign', 'unassigned', writer.username],
      ['issue_assign', 'assigned', owner],
      ['pull_request_assign', 'assigned', writer.username],
    ]));
  });
});
