/**
 * Labels and milestones end to end, over the whole suite: repository labels (Gitea's colors, exclusive scoped labels),
 * issue labels driven with `gitea-js` (the client generated from Gitea's description) and `@octokit/rest` (GitHub's
 * `/labels` and `/issues/{n}/labels` shapes), issues and pull requests created with labels and a milestone, the
 * `labels`/`milestones` issue-list filters, milestone counters, the permission matrix, and `issue_label` /
 * `issue_milestone` / `pull_request_label` webhooks delivered to a real receiver.
 */
import { Octokit } from '@octokit/rest';
import { giteaApi } from 'gitea-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken, createUser, http, uniqueName, type Account, type HttpClient } from '../support/session.js';
import { sharedTestSuite, type TestSuite } from '../support/suite.js';
import { waitFor } from '../support/wait.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe('labels and milestones', () => {
  let suite: TestSuite;
  let api: HttpClient;
  let receiver: WebhookReceiver;
  let owner: Account;
  let reader: Account;
  let ownerToken: string;
  let readerToken: string;
  let repo: string;
  const path = (p: string) => `/repos/${owner.username}/${repo}${p}`;
  const gitea = (token: string) =>
    giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    suite = await sharedTestSuite();
    api = http(suite);
    const admin = await suite.createAdmin();
    owner = await createUser(suite, admin, uniqueName('lowner'));
    reader = await createUser(suite, admin, uniqueName('lreader'));
    [ownerToken, readerToken] = await Promise.all([createToken(suite, owner), createToken(suite, reader)]);
    repo = uniqueName('labelled');
    const created = await api.post('/user/repos', { token: ownerToken, body: { name: repo, auto_init: true } });
    expect(created.status, created.text).toBe(201);
    const collab = await api.put(path(`/collaborators/${reader.username}`), { token: ownerToken, body: { permission: 'read' } });
    expect(collab.status, collab.text).toBe(204);
    const hook = await api.post(path('/hooks'), {
      token: ownerToken,
      body: { type: 'gitea', active: true, events: ['issues', 'pull_request'], config: { url: `${receiver.url}/labels`, content_type: 'json' } },
    });
    expect(hook.status, hook.text).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await suite?.stop();
    await receiver?.close();
  });

  it("creates, reads, edits and deletes repository labels with Gitea's JSON (gitea-js)", async () => {
    const client = gitea(ownerToken);
    const made = await client.repos.issueCreateLabel(owner.username, repo, { name: 'kind/bug', color: '#EE0701', description: 'broken' });
    expect(made.status).toBe(201);
    expect(made.data).toEqual({
      id: expect.any(Number),
      name: 'kind/bug',
      exclusive: false,
      is_archived: false,
      color: 'ee0701',
      description: 'broken',
      url: expect.any(String),
    });
    expect(made.data.url).toMatch(new RegExp(`/api/v1/repos/${owner.username}/${repo}/labels/${made.data.id}$`));
    const short = await client.repos.issueCreateLabel(owner.username, repo, { name: 'short', color: '0aF' });
    expect(short.data.color).toBe('00aaff');
    const edited = await client.repos.issueEditLabel(owner.username, repo, short.data.id!, { color: '123456', is_archived: true });
    expect(edited.data).toMatchObject({ name: 'short', color: '123456', is_archived: true });
    const listed = await client.repos.issueListLabels(owner.username, repo);
    expect(listed.data.map((l) => l.name)).toEqual(expect.arrayContaining(['kind/bug', 'short']));
    expect((await client.repos.issueGetLabel(owner.username, repo, made.data.id!)).data.name).toBe('kind/bug');
    expect((await client.repos.issueDeleteLabel(owner.username, repo, short.data.id!)).status).toBe(204);
    await expect(client.repos.issueGetLabel(owner.username, repo, short.data.id!)).rejects.toMatchObject({ status: 404 });

    const badColor = await api.post(path('/labels'), { token: ownerToken, body: { name: 'x', color: 'red' } });
    expect(badColor.status).toBe(422);
    expect(badColor.text).toMatch(/color/);
  });

  it('lets readers read labels and refuses them every change (403); anonymous writes 401', async () => {
    const label = await api.post(path('/labels'), { token: ownerToken, body: { name: 'reader-visible', color: '00ff00' } });
    expect(label.status).toBe(201);
    expect((await api.get(path('/labels'), { token: readerToken })).status).toBe(200);
    expect((await api.post(path('/labels'), { token: readerToken, body: { name: 'nope', color: '000000' } })).status).toBe(403);
    expect((await api.patch(path(`/labels/${label.body.id}`), { token: readerToken, body: { name: 'nope' } })).status).toBe(403);
    expect((await api.delete(path(`/labels/${label.body.id}`), { token: readerToken })).status).toBe(403);
    expect((await api.post(path('/milestones'), { token: readerToken, body: { title: 'nope' } })).status).toBe(403);
    const issue = await api.post(path('/issues'), { token: readerToken, body: { title: 'by a reader', labels: [label.body.id] } });
    expect(issue.status, issue.text).toBe(201);
    // As Gitea: a poster without write access cannot label on creation (the labels are ignored).
    expect(issue.body.labels).toEqual([]);
    const add = await api.post(path(`/issues/${issue.body.number}/labels`), { token: readerToken, body: { labels: [label.body.id] } });
    expect(add.status).toBe(403);
    expect((await api.delete(path(`/issues/${issue.body.number}/labels`), { token: readerToken })).status).toBe(403);
    expect((await api.post(path('/labels'), { body: { name: 'anon', color: '000000' } })).status).toBe(401);
  });

  it('adds, replaces, removes and clears issue labels; exclusive scopes keep one label each (gitea-js + Octokit)', async () => {
    const client = gitea(ownerToken);
    const mk = async (name: string, exclusive = false) =>
      (await client.repos.issueCreateLabel(owner.username, repo, { name, color: 'abcdef', exclusive })).data.id!;
    const [high, low, bug] = [await mk('priority/high', true), await mk('priority/low', true), await mk('bug')];
    const issue = await api.post(path('/issues'), { token: ownerToken, body: { title: 'scoped', labels: [high, bug] } });
    expect(issue.status, issue.text).toBe(201);
    expect(issue.body.labels.map((l: { name: string }) => l.name)).toEqual(['bug', 'priority/high']);
    const n = issue.body.number as number;

    // Adding priority/low removes priority/high: same exclusive scope.
    const added = await client.repos.issueAddLabel(owner.username, repo, n, { labels: [low] });
    expect(added.status).toBe(200);
    expect(added.data.map((l) => l.name)).toEqual(['bug', 'priority/low']);
    const replaced = await client.repos.issueReplaceLabels(owner.username, repo, n, { labels: ['priority/high'] });
    expect(replaced.data.map((l) => l.name)).toEqual(['priority/high']);
    const mixed = await api.put(path(`/issues/${n}/labels`), { token: ownerToken, body: { labels: [bug, 'bug'] } });
    expect(mixed.status).toBe(400);
    const unknown = await api.post(path(`/issues/${n}/labels`), { token: ownerToken, body: { labels: [999999] } });
    expect(unknown.status).toBe(422);

    // GitHub's route shapes, with Octokit.
    const octokit = new Octokit({ baseUrl: `${suite.baseUrl}/api/v1`, auth: `token ${ownerToken}` });
    const forRepo = await octokit.issues.listLabelsForRepo({ owner: owner.username, repo });
    expect(forRepo.data.map((l) => l.name)).toEqual(expect.arrayContaining(['bug', 'priority/high', 'priority/low']));
    const viaOctokit = await octokit.issues.addLabels({ owner: owner.username, repo, issue_number: n, labels: ['bug'] });
    expect(viaOctokit.data.map((l) => l.name)).toEqual(['bug', 'priority/high']);
    const onIssue = await octokit.issues.listLabelsOnIssue({ owner: owner.username, repo, issue_number: n });
    expect(onIssue.data.map((l) => l.name)).toEqual(['bug', 'priority/high']);

    // The labels filter: issues carrying every label named.
    const filtered = await api.get(path('/issues?labels=bug,priority/high&state=all'), { token: ownerToken });
    expect(filtered.body.map((i: { number: number }) => i.number)).toEqual([n]);
    const none = await api.get(path('/issues?labels=no-such-label'), { token: ownerToken });
    expect(none.body).toEqual([]);

    expect((await client.repos.issueRemoveLabel(owner.username, repo, n, high)).status).toBe(204);
    expect((await client.repos.issueGetLabels(owner.username, repo, n)).data.map((l) => l.name)).toEqual(['bug']);
    const missing = await api.delete(path(`/issues/${n}/labels/999999`), { token: ownerToken });
    expect(missing.status).toBe(422);
    expect((await client.repos.issueClearLabels(owner.username, repo, n)).status).toBe(204);
    expect((await api.get(path(`/issues/${n}`))).body.labels).toEqual([]);

    // Webhooks: Gitea's issue_label event (announced as `issues`), action label_updated / label_cleared.
    const labelHooks = await waitFor(() => {
      const got = receiver.received.filter((d) => d.headers['x-gitea-event-type'] === 'issue_label' && d.json?.issue?.number === n);
      return got.some((d) => d.json.action === 'label_cleared') ? got : null;
    }, 'issue_label deliveries');
    expect(labelHooks[0].event).toBe('issues');
    expect(labelHooks.map((d) => d.json.action)).toContain('label_updated');
  });

  it('keeps milestones with counters, by id or title, and files issues and pull requests in them', async () => {
    const client = gitea(ownerToken);
    const made = await client.repos.issueCreateMilestone(owner.username, repo, { title: 'v1.0', description: 'first', due_on: '2030-01-01T00:00:00Z' });
    expect(made.status).toBe(201);
    expect(made.data).toMatchObject({ title: 'v1.0', state: 'open', open_issues: 0, closed_issues: 0, due_on: '2030-01-01T00:00:00Z', closed_at: null });
    const id = made.data.id!;
    expect((await client.repos.issueGetMilestone(owner.username, repo, 'v1.0')).data.id).toBe(id);

    const one = await api.post(path('/issues'), { token: ownerToken, body: { title: 'in v1', milestone: id } });
    expect(one.body.milestone).toMatchObject({ id, title: 'v1.0', open_issues: 1 });
    const two = await api.post(path('/issues'), { token: ownerToken, body: { title: 'also in v1' } });
    const moved = await api.patch(path(`/issues/${two.body.number}`), { token: ownerToken, body: { milestone: id, state: 'closed' } });
    expect(moved.status, moved.text).toBe(201);
    expect(moved.body.milestone).toMatchObject({ id });
    const counted = await client.repos.issueGetMilestone(owner.username, repo, String(id));
    expect(counted.data).toMatchObject({ open_issues: 1, closed_issues: 1 });
    const inMilestone = await api.get(path(`/issues?milestones=v1.0&state=all`), { token: ownerToken });
    expect(inMilestone.body.map((i: { number: number }) => i.number).sort()).toEqual([one.body.number, two.body.number].sort());

    // A pull request created with labels and a milestone (Renovate's flow).
    const label = await api.post(path('/labels'), { token: ownerToken, body: { name: 'dependencies', color: '0366d6' } });
    const file = await api.post(path('/contents/deps.txt'), {
      token: ownerToken, body: { content: Buffer.from('x\n').toString('base64'), new_branch: 'renovate/deps' },
    });
    expect(file.status, file.text).toBe(201);
    const pr = await api.post(path('/pulls'), {
      token: ownerToken, body: { head: 'renovate/deps', base: 'main', title: 'Update deps', labels: [label.body.id], milestone: id },
    });
    expect(pr.status, pr.text).toBe(201);
    expect(pr.body.labels.map((l: { name: string }) => l.name)).toEqual(['dependencies']);
    expect(pr.body.milestone).toMatchObject({ id });
    const filteredPulls = await api.get(path(`/pulls?labels=${label.body.id}&milestone=${id}`), { token: ownerToken });
    expect(filteredPulls.status, filteredPulls.text).toBe(200);
    expect(filteredPulls.body.map((p: { number: number }) => p.number)).toEqual([pr.body.number]);
    const otherLabel = await api.get(path(`/pulls?labels=${label.body.id}&labels=${label.body.id + 100000}`), { token: ownerToken });
    expect(otherLabel.body).toEqual([]);
    const prLabels = await api.put(path(`/issues/${pr.body.number}/labels`), { token: ownerToken, body: { labels: [] } });
    expect(prLabels.status).toBe(200);
    // EditPullRequestOption's labels and milestone.
    const editedPr = await api.patch(path(`/pulls/${pr.body.number}`), { token: ownerToken, body: { labels: [label.body.id], milestone: 0 } });
    expect(editedPr.status, editedPr.text).toBe(201);
    expect(editedPr.body.labels.map((l: { name: string }) => l.name)).toEqual(['dependencies']);
    expect(editedPr.body.milestone).toBeNull();
    await waitFor(
      () => receiver.received.find((d) => d.headers['x-gitea-event-type'] === 'pull_request_label' && d.json?.pull_request?.number === pr.body.number),
      'a pull_request_label delivery',
    );

    const closed = await client.repos.issueEditMilestone(owner.username, repo, String(id), { state: 'closed' });
    expect(closed.data).toMatchObject({ state: 'closed', closed_at: expect.any(String) });
    const list = await client.repos.issueGetMilestonesList(owner.username, repo, { state: 'closed' });
    expect(list.data.map((m) => m.id)).toEqual([id]);
    expect((await client.repos.issueGetMilestonesList(owner.username, repo)).data).toEqual([]);

    // Leaving the milestone: demilestoned.
    await api.patch(path(`/issues/${one.body.number}`), { token: ownerToken, body: { milestone: 0 } });
    await waitFor(
      () => receiver.received.find((d) => d.headers['x-gitea-event-type'] === 'issue_milestone' && d.json?.action === 'demilestoned'),
      'an issue_milestone demilestoned delivery',
    );
    expect((await client.repos.issueDeleteMilestone(owner.username, repo, String(id))).status).toBe(204);
    expect((await api.get(path(`/issues/${two.body.number}`))).body.milestone).toBeNull();
    expect((await api.get(path(`/milestones/${id}`))).status).toBe(404);
  });

  it('keeps organization labels, usable on the organization\'s repositories; only owners change them', async () => {
    const org = uniqueName('lorg');
    expect((await api.post('/orgs', { token: ownerToken, body: { username: org } })).status).toBe(201);
    const orgRepo = uniqueName('orgrepo');
    expect((await api.post(`/orgs/${org}/repos`, { token: ownerToken, body: { name: orgRepo } })).status).toBe(201);
    const client = gitea(ownerToken);
    const made = await client.orgs.orgCreateLabel(org, { name: 'team/core', color: '#C0FFEE', exclusive: true });
    expect(made.status).toBe(201);
    expect(made.data).toMatchObject({ name: 'team/core', color: 'c0ffee', exclusive: true });
    expect(made.data.url).toMatch(new RegExp(`/api/v1/orgs/${org}/labels/${made.data.id}$`));
    expect((await client.orgs.orgListLabels(org)).data.map((l) => l.id)).toEqual([made.data.id]);
    expect((await client.orgs.orgEditLabel(org, made.data.id!, { description: 'core team' })).data.description).toBe('core team');
    expect((await api.get(`/orgs/${org}/labels/${made.data.id}`)).status).toBe(200);

    // A stranger sees the public organization's labels but may not change them.
    expect((await api.get(`/orgs/${org}/labels`, { token: readerToken })).status).toBe(200);
    expect((await api.post(`/orgs/${org}/labels`, { token: readerToken, body: { name: 'x', color: '000000' } })).status).toBe(403);
    expect((await api.delete(`/orgs/${org}/labels/${made.data.id}`, { token: readerToken })).status).toBe(403);
    expect((await api.get(`/orgs/no-such-org-${org}/labels`)).status).toBe(404);

    // On an issue of the organization's repository, by id and by name; not on another owner's repository.
    const issue = await api.post(`/repos/${org}/${orgRepo}/issues`, { token: ownerToken, body: { title: 'org labelled', labels: [made.data.id] } });
    expect(issue.status, issue.text).toBe(201);
    expect(issue.body.labels).toEqual([expect.objectContaining({ id: made.data.id, url: made.data.url })]);
    const byName = await api.put(`/repos/${org}/${orgRepo}/issues/${issue.body.number}/labels`, { token: ownerToken, body: { labels: ['team/core'] } });
    expect(byName.body.map((l: { id: number }) => l.id)).toEqual([made.data.id]);
    const elsewhere = await api.post(path('/issues'), { token: ownerToken, body: { title: 'not here', labels: [made.data.id] } });
    expect(elsewhere.status).toBe(422);

    expect((await client.orgs.orgDeleteLabel(org, made.data.id!)).status).toBe(204);
    expect((await api.get(`/repos/${org}/${orgRepo}/issues/${issue.body.number}/labels`)).body).toEqual([]);
  });
});
