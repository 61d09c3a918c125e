import { describe, expect, it } from 'vitest';
import {
  CommitStatusEvents, IssueCommentEvents, IssueEvents, PackageEvents, PullRequestEvents, PullReviewEvents, RepoEvents, ZERO_SHA,
  type IssueEventData, type PackageEventData, type PullRequestEventData, type PullReviewEventData, type PushEventData,
  IdentityEvents, type CommentDto, type CommitStatusEventData, type RepositoryEventData,
} from '@cairn/contracts';
import { EVENT_MAP, mapDomainEvent } from './event-map.js';
import { renderPayload } from './formats.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const repository = {
  id: 7, ownerId: 3, ownerName: 'acme', ownerKind: 'organization' as const, name: 'app', fullName: 'acme/app',
  private: false, defaultBranch: 'main', json: {},
};
const pusher = { id: 1, login: 'alice', username: 'alice' } as never;
const commit = (id: string, message: string) => ({
  id, message, url: `http://x/acme/app/commit/${id}`,
  author: { name: 'A', email: 'a@x', username: 'alice' }, committer: { name: 'A', email: 'a@x', username: 'alice' },
  timestamp: '2025-01-01T00:00:00Z', added: [], removed: [], modified: ['README.md'],
});
const ctx = { rootUrl: 'http://cairn.test/' };

describe('domain event → webhook events', () => {
  it("a commit status is Gitea's CommitStatusPayload (event status, no action, the row id, no branch filter)", () => {
    const status = {
      id: 2, status: 'success' as const, target_url: 'https://ci/1', description: 'ok', url: 'http://x/statuses/a',
      context: 'ci/build', creator: pusher, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z',
    };
    const data: CommitStatusEventData = { id: 41, sha: A, status, commit: commit(A, 'm'), repository, sender: pusher };
    const m = mapDomainEvent(CommitStatusEvents.created, data, ctx)!;
    expect(m.repository).toEqual({ id: 7, ownerId: 3 });
    expect(m.specs).toHaveLength(1);
    expect(m.specs[0]).toMatchObject({ eventType: 'status', key: 'status:41' });
    expect(m.specs[0].action).toBeUndefined();
    expect(m.specs[0].branch).toBeUndefined();
    expect(m.specs[0].payload).toMatchObject({
      id: 41, sha: A, state: 'success', context: 'ci/build', description: 'ok', target_url: 'https://ci/1',
      created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z', commit: { id: A }, sender: pusher,
    });
    const slack = JSON.parse(renderPayload('slack', 'status', m.specs[0].payload, {})!.body);
    expect(JSON.stringify(slack)).toContain(`Commit Status changed: ci/build[${A}]:ok`);
  });

  it('reviews are pull_request_review_<kind> with Gitea\'s review payload; requests name the reviewer', () => {
    const pr = { number: 4 } as never;
    const reviewed: PullReviewEventData = {
      action: 'reviewed', number: 4, pullRequest: pr, review: { type: 'approved', content: 'ok' }, repository, sender: pusher,
    };
    const m = mapDomainEvent(PullReviewEvents.submitted, reviewed, ctx)!;
    expect(m.specs[0]).toMatchObject({ eventType: 'pull_request_review_approved', action: 'reviewed' });
    expect(m.specs[0].payload).toMatchObject({ action: 'reviewed', number: 4, pull_request: pr, review: { type: 'pull_request_review_approved', content: 'ok' } });
    const bob = { id: 9, login: 'bob' } as never;
    const requested = mapDomainEvent(PullReviewEvents.requested, { ...reviewed, action: 'review_requested', review: undefined, requestedReviewer: bob }, ctx)!;
    expect(requested.specs[0]).toMatchObject({ eventType: 'pull_request_review_request', action: 'review_requested', key: 'pull_request_review_request:review_requested:9' });
    expect(requested.specs[0].payload).toMatchObject({ requested_reviewer: bob });
    expect(requested.specs[0].payload).not.toHaveProperty('review');
  });

  it('assignments are issue_assign / pull_request_assign, one delivery key per assignee', () => {
    const bob = { id: 9, login: 'bob' } as never;
    const issue: IssueEventData = { action: 'assigned', number: 2, issue: {} as never, isPull: false, assignee: bob, repository, sender: pusher };
    const m = mapDomainEvent(IssueEvents.assigned, issue, ctx)!;
    expect(m.specs[0]).toMatchObject({ eventType: 'issue_assign', action: 'assigned', key: 'issue_assign:assigned:9' });
    expect(m.specs[0].payload).toMatchObject({ action: 'assigned', assignee: bob });
    const pull: PullRequestEventData = { action: 'unassigned', number: 3, pullRequest: {} as never, assignee: bob, repository, sender: pusher };
    const p = mapDomainEvent(PullRequestEvents.unassigned, pull, ctx)!;
    expect(p.specs[0]).toMatchObject({ eventType: 'pull_request_assign', action: 'unassigned', key: 'pull_request_assign:unassigned:9' });
  });

  it("a package version is Gitea's package payload, for the owner's hooks only when no repository is linked", () => {
    const pkg = { id: 11, name: 'tool', version: '1.0.0', type: 'generic', repository: null } as never;
    const data: PackageEventData = { action: 'created', ownerId: 3, repository: null, package: pkg, sender: pusher };
    const m = mapDomainEvent(PackageEvents.versionCreated, data, ctx)!;
    expect(m.repository).toEqual({ id: 0, ownerId: 3 });
    expect(m.specs).toHaveLength(1);
    expect(m.specs[0]).toMatchObject({ eventType: 'package', action: 'created', key: 'package:created' });
    expect(m.specs[0].payload).toEqual({ action: 'created', repository: null, package: pkg, organization: null, sender: pusher });

    const deleted = mapDomainEvent(PackageEvents.versionDeleted, { ...data, action: 'deleted', repository: { id: 7, ownerId: 3 } }, ctx)!;
    expect(deleted.repository).toEqual({ id: 7, ownerId: 3 });
    expect(deleted.specs[0]).toMatchObject({ eventType: 'package', action: 'deleted', key: 'package:deleted' });
  });

  it('a push to an existing branch is one push with Gitea fields, commits oldest first', () => {
    const data: PushEventData = {
      repository, pusher,
      updates: [{ ref: 'refs/heads/main', old: A, new: B, commits: [commit(B, 'second'), commit(A, 'first')], totalCommits: 2 }],
    };
    const m = mapDomainEvent(RepoEvents.pushReceived, data, ctx)!;
    expect(m.repository).toEqual({ id: 7, ownerId: 3 });
    expect(m.specs.map((s) => s.eventType)).toEqual(['push']);
    const p = m.specs[0].payload as any;
    expect(p).toMatchObject({
      ref: 'refs/heads/main', before: A, after: B, total_commits: 2,
      compare_url: `http://cairn.test/acme/app/compare/${A}...${B}`,
    });
    expect(p.commits.map((c: any) => c.message)).toEqual(['first', 'second']);
    expect(p.head_commit.id).toBe(B);
    expect(p.repository.full_name).toBe('acme/app');
    expect(p.pusher).toBe(pusher);
    expect(p.sender).toBe(pusher);
    expect(m.specs[0].branch).toBe('main');
  });

  it('a new branch yields create and push; a deleted one delete only; tags are not branch-filtered', () => {
    const data: PushEventData = {
      repository, pusher,
      updates: [
        { ref: 'refs/heads/feat/x', old: ZERO_SHA, new: B, commits: [commit(B, 'x')], totalCommits: 1 },
        { ref: 'refs/heads/old', old: A, new: ZERO_SHA, commits: [], totalCommits: 0 },
        { ref: 'refs/tags/v1', old: ZERO_SHA, new: A, commits: [], totalCommits: 0 },
        { ref: 'refs/pull/1/head', old: ZERO_SHA, new: A, commits: [], totalCommits: 0 },
      ],
    };
    const specs = mapDomainEvent(RepoEvents.pushReceived, data, ctx)!.specs;
    expect(specs.map((s) => [s.eventType, s.key, s.branch])).toEqual([
      ['create', 'create:refs/heads/feat/x', 'feat/x'],
      ['push', 'push:refs/heads/feat/x', 'feat/x'],
      ['delete', 'delete:refs/heads/old', 'old'],
      ['create', 'create:refs/tags/v1', undefined],
      ['push', 'push:refs/tags/v1', undefined],
    ]);
    expect(specs[0].payload).toMatchObject({ ref: 'feat/x', ref_type: 'branch', sha: B });
    expect(specs[2].payload).toMatchObject({ ref: 'old', ref_type: 'branch', pusher_type: 'user' });
    expect(specs[3].payload).toMatchObject({ ref: 'v1', ref_type: 'tag' });
  });

  it('a renamed branch yields delete and create only (no push), as Gitea', () => {
    const data: PushEventData = {
      repository, pusher,
      updates: [
        { ref: 'refs/heads/old-name', old: A, new: ZERO_SHA, commits: [], totalCommits: 0, renamed: true },
        { ref: 'refs/heads/new-name', old: ZERO_SHA, new: A, commits: [], totalCommits: 0, renamed: true },
      ],
    };
    const specs = mapDomainEvent(RepoEvents.pushReceived, data, ctx)!.specs;
    expect(specs.map((s) => [s.eventType, s.key])).toEqual([
      ['delete', 'delete:refs/heads/old-name'],
      ['create', 'create:refs/heads/new-name'],
    ]);
    expect(specs[1].payload).toMatchObject({ ref: 'new-name', ref_type: 'branch', sha: A });
  });

  it('repository created/deleted become repository events with their hook effects', () => {
    const data: RepositoryEventData = { repository, sender: pusher };
    const created = mapDomainEvent(RepoEvents.repositoryCreated, data, ctx)!;
    expect(created.effect).toBe('copy-default-hooks');
    expect(created.specs[0]).toMatchObject({ eventType: 'repository', action: 'created' });
    const deleted = mapDomainEvent(RepoEvents.repositoryDeleted, data, ctx)!;
    expect(deleted).toMatchObject({ effect: 'delete-repository-hooks', excludeRepositoryHooks: true });
    expect(deleted.specs[0].payload).toMatchObject({ action: 'deleted' });
  });

  it('a fork becomes a fork event for the source repository, forkee the new fork', () => {
    const forkee = { ...repository, id: repository.id + 1, ownerName: 'bob', fullName: `bob/${repository.name}`, json: {} };
    const mapped = mapDomainEvent(RepoEvents.repositoryForked, { repository, forkee, sender: pusher }, ctx)!;
    expect(mapped.repository).toEqual({ id: repository.id, ownerId: repository.ownerId });
    expect(mapped.effect).toBeUndefined();
    expect(mapped.specs).toHaveLength(1);
    expect(mapped.specs[0]).toMatchObject({ eventType: 'fork', key: `fork:${forkee.id}` });
    expect(mapped.specs[0].payload).toMatchObject({ forkee: { id: forkee.id, full_name: forkee.fullName }, sender: pusher });
  });

  it('issues, comments and pull requests become Gitea issue/comment/pull-request payloads', () => {
    const issue = { id: 11, number: 4, title: 'Bug' } as never;
    const pr = { id: 21, number: 5, title: 'Fix', merged: true } as never;
    const opened = mapDomainEvent(IssueEvents.opened, { action: 'opened', number: 4, issue, isPull: false, repository, sender: pusher }, ctx)!;
    expect(opened.specs[0]).toMatchObject({ eventType: 'issues', action: 'opened', payload: { action: 'opened', number: 4, issue } });
    const locked = mapDomainEvent(IssueEvents.locked, { action: 'locked', number: 5, issue, isPull: true, pullRequest: pr, repository, sender: pusher }, ctx)!;
    expect(locked.specs[0]).toMatchObject({ eventType: 'pull_request', payload: { pull_request: pr } });
    const comment = { id: 99, body: 'hi' } as CommentDto; // only what the payload copies
    const onIssue = mapDomainEvent(IssueCommentEvents.created, { action: 'created', issue, comment, isPull: false, repository, sender: pusher }, ctx)!;
    expect(onIssue.specs[0]).toMatchObject({ eventType: 'issue_comment', payload: { comment, is_pull: false } });
    const onPull = mapDomainEvent(IssueCommentEvents.edited, { action: 'edited', issue, pullRequest: pr, comment, isPull: true, changes: { body: { from: 'x' } }, repository, sender: pusher }, ctx)!;
    expect(onPull.specs[0]).toMatchObject({ eventType: 'pull_request_comment', payload: { pull_request: pr, changes: { body: { from: 'x' } } } });
    const sync = mapDomainEvent(PullRequestEvents.synchronized, { action: 'synchronized', number: 5, pullRequest: pr, before: A, after: B, repository, sender: pusher }, ctx)!;
    expect(sync.specs[0]).toMatchObject({ eventType: 'pull_request_sync', payload: { action: 'synchronized', before: A, after: B } });
    const merged = mapDomainEvent(PullRequestEvents.merged, { action: 'closed', number: 5, pullRequest: pr, commitId: B, repository, sender: pusher }, ctx)!;
    expect(merged.specs[0]).toMatchObject({ eventType: 'pull_request', payload: { action: 'closed', commit_id: B, pull_request: { merged: true } } });
    const check = mapDomainEvent(PullRequestEvents.mergeabilityChanged, {
      action: 'mergeability_changed', number: 5, pullRequest: pr, repository, sender: null,
      mergeability: { status: 'conflict', conflictedFiles: ['a'], baseSha: A, headSha: B },
    }, ctx)!;
    expect(check.specs[0]).toMatchObject({ eventType: 'pull_request', action: 'mergeability_changed', payload: { mergeability: { status: 'conflict' } } });
    expect(check.specs[0].branch).toBeUndefined();
  });

  it('ignores event types it does not know', () => {
    expect(mapDomainEvent(IdentityEvents.userCreated, { id: 1, login: 'new' }, ctx)).toBeNull();
    expect(Object.keys(EVENT_MAP)).toContain(RepoEvents.pushReceived);
  });
});

describe('payload formats', () => {
  const payload = { ref: 'refs/heads/main', commits: [], total_commits: 0, repository: { full_name: 'acme/app' } };

  it('native types send Gitea JSON, indented', () => {
    const r = renderPayload('gitea', 'push', payload, {}, 0)!;
    expect(JSON.parse(r.body)).toEqual(payload);
    expect(r.body).toContain('\n  "ref"');
  });

  it('chat types skip pushes without commits and render a message otherwise', () => {
    expect(renderPayload('slack', 'push', payload, { channel: '#c' }, 0)).toBeNull();
    const slack = JSON.parse(renderPayload('slack', 'create', { ref: 'x', ref_type: 'branch', repository: {} }, { channel: '#c' })!.body);
    expect(slack.channel).toBe('#c');
    expect(slack.text).toContain('branch x created');
    expect(renderPayload('matrix', 'repository', { action: 'created', repository: {} }, {})!.method).toBe('PUT');
    for (const t of ['discord', 'msteams', 'dingtalk', 'telegram', 'feishu', 'wechatwork', 'packagist']) {
      expect(() => JSON.parse(renderPayload(t, 'issues', { action: 'opened', issue: { number: 1, title: 'T' } }, {})!.body)).not.toThrow();
    }
  });
});
