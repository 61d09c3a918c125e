/**
 * Two real clients' flows end to end, through `gitea-js` (the npm client generated from Gitea's description), each
 * response also checked against Cairn's published description:
 * - what Renovate's Gitea platform does (lib/modules/platform/gitea): discover repositories by topic without archived
 *   ones, read the repository and a file, create a branch through the contents API, open a pull request with labels
 *   and a reviewer, set and read commit statuses, merge once green, close a pull request it no longer needs;
 * - what Gitea's Terraform provider does for its resources: organization, repository (read back by id), branch
 *   protection, deploy key and team — create, read, update, delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giteaApi, type Api } from 'gitea-js';
import { assertMatchesContract } from '../support/openapi-contract.js';
import { createToken, createUser, http, uniqueName, type HttpClient } from '../support/session.js';
import { startTestSuite, type Account, type TestSuite } from '../support/suite.js';
import { generateSshKey, workspace } from '../support/git.js';
import { waitFor } from '../support/wait.js';
import { FAST_PASSWORD_HASH } from './identity-helpers.js';

type Client = Api<unknown>;
const JSON_BODY = { headers: { 'content-type': 'application/json' } };
type Reply<T> = { status: number; data: T };

let suite: TestSuite;
let api: HttpClient;
let admin: Account;
const ws = workspace('cairn-e2e-client-flows-');

function clientFor(token: string): Client {
  return giteaApi(suite.baseUrl, { token, customFetch: (...args: Parameters<typeof fetch>) => fetch(...args) });
}

/** Awaits a gitea-js call, checks its body against the published description, and returns the body. */
async function ok<T>(method: string, template: string, call: Promise<Reply<T>>): Promise<T> {
  const res = await call;
  assertMatchesContract(method, template, res.status, res.data);
  return res.data;
}

beforeAll(async () => {
  suite = await startTestSuite({ env: { ...FAST_PASSWORD_HASH } });
  api = http(suite);
  admin = await suite.createAdmin();
});

afterAll(async () => {
  await suite?.stop();
  ws.cleanup();
});

describe('a Renovate-like bot on Cairn', () => {
  it('discovers, branches, opens a labelled pull request with a reviewer, reports statuses, automerges when green and closes', async () => {
    const bot = await createUser(suite, admin, uniqueName('renovate'));
    const reviewer = await createUser(suite, admin, uniqueName('reviewer'));
    const renovate = clientFor(await createToken(suite, bot));
    const org = uniqueName('deps');

    // The bot's organization, two repositories with the topic it looks for (one archived) and one without.
    await ok('POST', '/orgs', renovate.orgs.orgCreate({ username: org }));
    const repoNames = { wanted: uniqueName('app'), archived: uniqueName('old'), other: uniqueName('misc') };
    for (const name of Object.values(repoNames)) {
      await ok('POST', '/orgs/{org}/repos', renovate.orgs.createOrgRepo(org, { name, auto_init: true, default_branch: 'main' }));
    }
    for (const name of [repoNames.wanted, repoNames.archived]) {
      await ok('PUT', '/repos/{owner}/{repo}/topics', renovate.repos.repoUpdateTopics(org, name, { topics: ['renovate-managed'] }));
    }
    await ok('PATCH', '/repos/{owner}/{repo}', renovate.repos.repoEdit(org, repoNames.archived, { archived: true }));
    await ok('PUT', '/repos/{owner}/{repo}/collaborators/{collaborator}',
      renovate.repos.repoAddCollaborator(org, repoNames.wanted, reviewer.username, { permission: 'write' }));

    // initPlatform: who am I, which Gitea.
    expect((await ok('GET', '/user', renovate.user.userGetCurrent())).login).toBe(bot.username);
    expect((await ok('GET', '/version', renovate.version.getVersion())).version).toBeTruthy();

    // getRepos with autodiscoverTopics: topic search, archived ones left out.
    const found = await ok('GET', '/repos/search', renovate.repos.repoSearch({ q: 'renovate-managed', topic: true, archived: false, limit: 50 }));
    expect(found.data?.map((r) => r.full_name)).toEqual([`${org}/${repoNames.wanted}`]);

    // initRepo: the repository, its default branch, what the bot may do; then the config file.
    const repo = await ok('GET', '/repos/{owner}/{repo}', renovate.repos.repoGet(org, repoNames.wanted));
    expect(repo).toMatchObject({ default_branch: 'main', archived: false, permissions: { push: true } });
    const readme = await ok('GET', '/repos/{owner}/{repo}/contents/{filepath}', renovate.repos.repoGetContents(org, repoNames.wanted, 'README.md', { ref: 'main' }));
    expect(readme.type).toBe('file');

    // The update branch, created with its commit through the contents API.
    const branch = 'renovate/lodash-4.x';
    const created = await ok('POST', '/repos/{owner}/{repo}/contents/{filepath}', renovate.repos.repoCreateFile(org, repoNames.wanted, 'renovate.json', {
      content: Buffer.from('{"extends":["config:recommended"]}\n').toString('base64'),
      branch: 'main',
      new_branch: branch,
      message: 'chore(deps): add renovate.json',
    }));
    const headSha = created.commit!.sha!;

    // Labels the bot applies: one of the repository, one of the organization.
    const repoLabel = await ok('POST', '/repos/{owner}/{repo}/labels', renovate.repos.issueCreateLabel(org, repoNames.wanted, { name: 'dependencies', color: '#0366d6' }));
    const orgLabel = await ok('POST', '/orgs/{org}/labels', renovate.orgs.orgCreateLabel(org, { name: 'renovate', color: 'ededed' }));
    const repoLabels = await ok('GET', '/repos/{owner}/{repo}/labels', renovate.repos.issueListLabels(org, repoNames.wanted));
    const orgLabels = await ok('GET', '/orgs/{org}/labels', renovate.orgs.orgListLabels(org));
    const labelIds = [...repoLabels, ...orgLabels].filter((l) => ['dependencies', 'renovate'].includes(l.name!)).map((l) => l.id!);
    expect(labelIds.sort()).toEqual([repoLabel.id!, orgLabel.id!].sort());

    const pr = await ok('POST', '/repos/{owner}/{repo}/pulls', renovate.repos.repoCreatePullRequest(org, repoNames.wanted, {
      head: branch, base: 'main', title: 'chore(deps): update lodash to v4.17.21', body: 'This PR updates lodash.', labels: labelIds,
    }));
    expect(pr.labels?.map((l) => l.name).sort()).toEqual(['dependencies', 'renovate']);
    await ok('POST', '/repos/{owner}/{repo}/pulls/{index}/requested_reviewers',
      // gitea-js 1.23 sends this one body without a JSON Content-Type (its description omits `consumes`); Cairn takes
      // request bodies only as JSON (a text/plain POST is what a cross-site form can send), so the type is set here.
      renovate.repos.repoCreatePullReviewRequests(org, repoNames.wanted, pr.number!, { reviewers: [reviewer.username] }, JSON_BODY));
    const withReviewer = await ok('GET', '/repos/{owner}/{repo}/pulls/{index}', renovate.repos.repoGetPullRequest(org, repoNames.wanted, pr.number!));
    expect(withReviewer.requested_reviewers?.map((u) => u.login)).toEqual([reviewer.username]);

    // setBranchStatus / getBranchStatus: pending first, then green; the bot reads them per ref, escaping the branch
    // name as Renovate does (a `/` in a path segment matches no route, on Gitea as here).
    const escapedBranch = encodeURIComponent(branch);
    const status = (state: 'pending' | 'success') => renovate.repos.repoCreateStatus(org, repoNames.wanted, headSha, {
      state, context: 'renovate/stability-days', description: state === 'success' ? 'Updates have met minimum release age' : 'Waiting',
    });
    await ok('POST', '/repos/{owner}/{repo}/statuses/{sha}', status('pending'));
    const pending = await ok('GET', '/repos/{owner}/{repo}/commits/{ref}/status', renovate.repos.repoGetCombinedStatusByRef(org, repoNames.wanted, escapedBranch));
    expect(pending.state).toBe('pending');
    await ok('POST', '/repos/{owner}/{repo}/statuses/{sha}', status('success'));
    const statuses = await ok('GET', '/repos/{owner}/{repo}/commits/{ref}/statuses', renovate.repos.repoListStatusesByRef(org, repoNames.wanted, escapedBranch));
    expect(statuses.map((s) => s.status)).toEqual(['success', 'pending']);
    const green = await ok('GET', '/repos/{owner}/{repo}/commits/{ref}/status', renovate.repos.repoGetCombinedStatusByRef(org, repoNames.wanted, escapedBranch));
    expect(green.state).toBe('success');

    // Automerge once green (after the merge check has run).
    await waitFor(async () => (await api.get(`/repos/${org}/${repoNames.wanted}/pulls/${pr.number}`, { token: await tokenOf(bot) })).body.mergeable === true, 'a mergeable pull request');
    await renovate.repos.repoMergePullRequest(org, repoNames.wanted, pr.number!, { Do: 'merge', delete_branch_after_merge: true });
    const merged = await ok('GET', '/repos/{owner}/{repo}/pulls/{index}', renovate.repos.repoGetPullRequest(org, repoNames.wanted, pr.number!));
    expect(merged.merged).toBe(true);

    // A pull request the bot no longer needs is closed.
    const stale = 'renovate/obsolete';
    await ok('POST', '/repos/{owner}/{repo}/branches', renovate.repos.repoCreateBranch(org, repoNames.wanted, { new_branch_name: stale, old_ref_name: 'main' }));
    await renovate.repos.repoCreateFile(org, repoNames.wanted, 'obsolete.txt', { content: Buffer.from('x\n').toString('base64'), branch: stale, message: 'obsolete' });
    const obsolete = await ok('POST', '/repos/{owner}/{repo}/pulls', renovate.repos.repoCreatePullRequest(org, repoNames.wanted, {
      head: stale, base: 'main', title: 'chore(deps): obsolete update',
    }));
    const closed = await ok('PATCH', '/repos/{owner}/{repo}/pulls/{index}', renovate.repos.repoEditPullRequest(org, repoNames.wanted, obsolete.number!, { state: 'closed' }));
    expect(closed.state).toBe('closed');
    const open = await ok('GET', '/repos/{owner}/{repo}/pulls', renovate.repos.repoListPullRequests(org, repoNames.wanted, { state: 'open' }));
    expect(open).toEqual([]);
  });
});

const tokens = new Map<string, string>();
async function tokenOf(who: Account): Promise<string> {
  if (!tokens.has(who.username)) tokens.set(who.username, await createToken(suite, who));
  return tokens.get(who.username)!;
}

describe('a Terraform-like provider on Cairn', () => {
  it('manages an organization, a repository read by id, branch protection, a deploy key and a team', async () => {
    const operator = await createUser(suite, admin, uniqueName('tf'));
    const member = await createUser(suite, admin, uniqueName('member'));
    const tf = clientFor(await tokenOf(operator));
    const orgName = uniqueName('platform');

    // gitea_org
    await ok('POST', '/orgs', tf.orgs.orgCreate({ username: orgName, full_name: 'Platform', visibility: 'public' }));
    const editedOrg = await ok('PATCH', '/orgs/{org}', tf.orgs.orgEdit(orgName, { description: 'Managed by Terraform', location: 'Earth' }));
    expect(editedOrg).toMatchObject({ description: 'Managed by Terraform', location: 'Earth' });
    expect((await ok('GET', '/orgs/{org}', tf.orgs.orgGet(orgName))).description).toBe('Managed by Terraform');

    // gitea_repository: created, then always read back by its id.
    const created = await ok('POST', '/orgs/{org}/repos', tf.orgs.createOrgRepo(orgName, { name: 'infra', auto_init: true, default_branch: 'main', private: true }));
    const byId = await ok('GET', '/repositories/{id}', tf.repositories.repoGetById(created.id!));
    expect(byId).toMatchObject({ id: created.id, full_name: `${orgName}/infra`, private: true });

    // gitea_branch_protection
    const rule = await ok('POST', '/repos/{owner}/{repo}/branch_protections', tf.repos.repoCreateBranchProtection(orgName, 'infra', {
      rule_name: 'main', enable_push: false, required_approvals: 1, enable_status_check: true, status_check_contexts: ['ci/build'],
    }));
    expect(rule).toMatchObject({ rule_name: 'main', enable_push: false, required_approvals: 1, status_check_contexts: ['ci/build'] });
    const changed = await ok('PATCH', '/repos/{owner}/{repo}/branch_protections/{name}',
      tf.repos.repoEditBranchProtection(orgName, 'infra', 'main', { required_approvals: 2 }));
    expect(changed.required_approvals).toBe(2);
    expect((await ok('GET', '/repos/{owner}/{repo}/branch_protections/{name}', tf.repos.repoGetBranchProtection(orgName, 'infra', 'main'))).required_approvals).toBe(2);

    // gitea_repository_key (a deploy key)
    const key = await generateSshKey(ws.dir('keys'));
    const deployKey = await ok('POST', '/repos/{owner}/{repo}/keys', tf.repos.repoCreateKey(orgName, 'infra', { title: 'deploy', key: key.publicKey, read_only: true }));
    // `read_only` is shown only to a site admin or the user owning the repository (Gitea's rule), not to org owners.
    expect(deployKey).toMatchObject({ title: 'deploy' });
    expect((await ok('GET', '/repos/{owner}/{repo}/keys/{id}', tf.repos.repoGetKey(orgName, 'infra', deployKey.id!))).fingerprint).toBe(deployKey.fingerprint);

    // gitea_team with a member and the repository
    const team = await ok('POST', '/orgs/{org}/teams', tf.orgs.orgCreateTeam(orgName, {
      name: 'maintainers', permission: 'write', units: ['repo.code', 'repo.issues', 'repo.pulls'], includes_all_repositories: false,
    }));
    await tf.teams.orgAddTeamMember(team.id!, member.username);
    await tf.teams.orgAddTeamRepository(team.id!, orgName, 'infra');
    expect((await ok('GET', '/teams/{id}/repos', tf.teams.orgListTeamRepos(team.id!))).map((r) => r.name)).toEqual(['infra']);
    expect((await ok('GET', '/teams/{id}/members/{username}', tf.teams.orgListTeamMember(team.id!, member.username))).login).toBe(member.username);
    const renamed = await ok('PATCH', '/teams/{id}', tf.teams.orgEditTeam(team.id!, { name: 'maintainers', description: 'Keeps infra running' }));
    expect(renamed.description).toBe('Keeps infra running');
    // The member now reads the private repository through the team.
    expect((await api.get(`/repos/${orgName}/infra`, { basic: member })).status).toBe(200);

    // terraform destroy, in dependency order.
    expect((await tf.teams.orgDeleteTeam(team.id!)).status).toBe(204);
    expect((await tf.repos.repoDeleteKey(orgName, 'infra', deployKey.id!)).status).toBe(204);
    expect((await tf.repos.repoDeleteBranchProtection(orgName, 'infra', 'main')).status).toBe(204);
    expect((await tf.repos.repoDelete(orgName, 'infra')).status).toBe(204);
    expect((await tf.orgs.orgDelete(orgName)).status).toBe(204);
    await expect(tf.orgs.orgGet(orgName)).rejects.toMatchObject({ status: 404 });
  });
});
