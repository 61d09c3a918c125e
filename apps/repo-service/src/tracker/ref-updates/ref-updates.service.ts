import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  IdentitySubjects, MERGE_CHECK_URGENT_PRIORITY, PullRequestEvents, RepoEvents, checkNowAfterBaseMove, isZeroId,
  mergeCheckPriority, repoUrls,
  type MergeCheckJobData, type PushEventData, type RefUpdate,
  type RepoEventRepository, type UserDto,
} from '@cairn/contracts';
import { RpcClient, EventOutbox } from '@cairn/platform';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { CommitGraphMaintainer } from '../../git-core/git/commit-graph-maintainer.js';
import { isAncestor, logRange, pullHeadRef, resolveBranch, updateRef } from '@cairn/git';
import type { Tx } from '../../foundation/prisma/prisma.service.js';
import { MergeCheckQueue, checkJobData } from '../pulls/merge-check.queue.js';
import { PullRenderer, type PullRendering } from '../issue-core/pull-renderer.js';
import { PULL_SETTINGS, type PullSettings } from '../pulls/pull-settings.js';
import { PullsService } from '../pulls/pulls.service.js';
import { effectiveStatus } from '../issue-core/pull.mapper.js';
import { IssuesRepository } from '../issue-core/issues.repository.js';
import { PullsRepository, type CandidateRow } from '../pulls/pulls.repository.js';
import { PullHeads } from '../pulls/pull-heads.js';
import type { RefUpdateLine } from '../../git-core/transport/push-log.js';
import { commitEmails, listRefCommits, toRefUpdate, type PushPeople } from './pushed-commits.js';
import { pushEvents } from './push-event.js';

export interface RefUpdatesInput {
  repoId: number;
  dir: string;
  /** Looked up with the pusher and commit authors; names build commit URLs. */
  ownerId: number;
  ownerName: string;
  name: string;
  lines: RefUpdateLine[];
  /** A pusher, or the user who merged or updated; null if nobody known. */
  pusherId: number | null;
}

/** Loaded before the transaction: no remote calls under locks. */
export interface PreparedRefUpdates {
  input: RefUpdatesInput;
  updates: RefUpdate[];
  /** From the one identity lookup (pusher, owner, commit authors). */
  people: PushPeople;
  pusher: UserDto | null;
  /** By base repository (this one, and each fork pull's base); missing ones are rendered when needed. */
  renderings: Map<number, PullRendering>;
  pullPushes: Map<number, PullPush>;
}

/** Gitea's `pull_push` body: commits added since the old head, or old and new head on a force-push. */
export interface PullPush {
  from: string;
  to: string;
  body: string;
}

/** Gitea shows the first ones too. */
const PULL_PUSH_MAX_COMMITS = 250;

async function pullPush(dir: string, from: string, to: string): Promise<PullPush> {
  const forced = !(await isAncestor(dir, from, to).catch(() => false));
  const commitIds = forced
    ? [from, to]
    : (await logRange(dir, from, to, 0, PULL_PUSH_MAX_COMMITS)).commits.map((c) => c.sha).reverse();
  return { from, to, body: JSON.stringify({ is_force_push: forced, commit_ids: commitIds }) };
}

export interface RecordedRefUpdates {
  prepared: PreparedRefUpdates;
  /** In the base repository at `dir`. */
  pullHeads: { dir: string; repoId: number; index: number; sha: string }[];
  checks: { data: MergeCheckJobData; priority: number }[];
  /** Base moved, but they stay delayed until viewed. */
  delayed: number;
}

function deletedBranches(lines: RefUpdateLine[]): string[] {
  return lines.filter((l) => l.ref.startsWith('refs/heads/') && isZeroId(l.new)).map((l) => l.ref.slice('refs/heads/'.length));
}

/** Deletions and other refs move no pull request. */
function movedBranches(lines: RefUpdateLine[]): { branch: string; sha: string }[] {
  return lines
    .filter((l) => l.ref.startsWith('refs/heads/') && !isZeroId(l.new))
    .map((l) => ({ branch: l.ref.slice('refs/heads/'.length), sha: l.new }))
    .sort((a, b) => (a.branch < b.branch ? -1 : a.branch > b.branch ? 1 : 0));
}

// The one home of "a branch moved": `prepare` before the transaction, `recordRefUpdates` inside it, `afterCommit` after.
@Injectable()
export class RefUpdates {
  private readonly logger = new Logger('RefUpdates');

  constructor(
    private readonly rpc: RpcClient,
    private readonly pulls: PullsRepository,
    private readonly pullsService: PullsService,
    private readonly renderer: PullRenderer,
    private readonly outbox: EventOutbox,
    private readonly queue: MergeCheckQueue,
    private readonly commitGraphs: CommitGraphMaintainer,
    private readonly heads: PullHeads,
    private readonly issues: IssuesRepository,
    @Inject(PULL_SETTINGS) private readonly settings: PullSettings,
    @Inject(REPO_SETTINGS) private readonly repoSettings: RepoSettings,
  ) {}

  async prepare(input: RefUpdatesInput): Promise<PreparedRefUpdates> {
    const listed = await listRefCommits(input.dir, input.lines, this.repoSettings.pushMaxCommits, (line, err) =>
      this.logger.error(`listing commits of ${line.ref} in repository ${input.repoId} failed: ${err.message}`),
    );
    const people = await this.lookupPeople(input, commitEmails(listed.flatMap((l) => l.commits)));
    const urls = repoUrls(this.renderer.rootUrl, input);
    const updates = input.lines.map((line, i) => toRefUpdate(line, listed[i], urls, people));
    const moved = movedBranches(input.lines);
    const preview = moved.length ? await this.pulls.findOpenFromHeads(input.repoId, moved.map((b) => b.branch)) : [];
    const renderings = new Map<number, PullRendering>();
    for (const repoId of new Set(preview.map((p) => p.repoId))) {
      const rows = preview.filter((p) => p.repoId === repoId);
      renderings.set(repoId, await this.renderer.prepareSystem(repoId, rows, input.pusherId));
    }
    // Fork heads are copied into their base repositories before anything names them there (repeated in moveHeads for a
    // pull opened meanwhile).
    for (const row of preview.filter((p) => p.repoId !== input.repoId)) {
      const sha = moved.find((b) => b.branch === row.pullRequest.headBranch)?.sha;
      if (sha) await this.copyHead(input, row.repoId, sha);
    }
    const pusher = input.pusherId === null ? null : (people.users.get(input.pusherId) ?? null);
    const pullPushes = new Map<number, PullPush>();
    for (const row of preview) {
      const sha = moved.find((b) => b.branch === row.pullRequest.headBranch)?.sha;
      const from = row.pullRequest.headSha;
      if (!sha || sha === from) continue;
      pullPushes.set(row.pullRequest.id, await pullPush(input.dir, from, sha).catch(() => ({
        from, to: sha, body: JSON.stringify({ is_force_push: true, commit_ids: [from, sha] }),
      })));
    }
    return { input, updates, people, pusher, renderings, pullPushes };
  }

  /** Null when that failed: the pull keeps its head until the next push. */
  private async copyHead(input: RefUpdatesInput, baseRepoId: number, sha: string): Promise<string | null> {
    return this.heads.copyIntoRepo(baseRepoId, input.dir, sha).catch((err: Error) => {
      this.logger.warn(`copying ${sha} of repository ${input.repoId} into repository ${baseRepoId} failed: ${err.message}`);
      return null;
    });
  }

  /** Advisory locks in name order, before row locks: a late recording of an older move never moves a pull back. */
  async lockBranches(tx: Tx, prepared: PreparedRefUpdates): Promise<void> {
    for (const { branch } of movedBranches(prepared.input.lines)) {
      await this.pulls.lockBranch(tx, prepared.input.repoId, branch);
    }
  }

  /** `repository` as the event carries it (a push may have changed the row in this transaction). */
  async recordRefUpdates(tx: Tx, prepared: PreparedRefUpdates, repository: RepoEventRepository): Promise<RecordedRefUpdates> {
    const { input } = prepared;
    const push: PushEventData = { repository, pusher: prepared.pusher, updates: prepared.updates };
    // Several events when one would be too large for NATS (see push-event.ts).
    for (const part of pushEvents(push)) await this.outbox.record(tx, RepoEvents.pushReceived, part);
    const recorded: RecordedRefUpdates = { prepared, pullHeads: [], checks: [], delayed: 0 };
    const branches = movedBranches(input.lines);
    if (!branches.length) return recorded;
    const inUse = await this.pulls.branchesInUse(tx, input.repoId, branches.map((b) => b.branch));
    if (!inUse.size) return recorded;
    await this.lockBranches(tx, prepared);
    const current: typeof branches = [];
    for (const b of branches.filter((x) => inUse.has(x.branch))) {
      if (await this.isTip(input.dir, b.branch, b.sha)) current.push(b);
    }
    const checks = new Map<number, { data: MergeCheckJobData; priority: number }>();
    const now = new Date();
    // Bases first: a push may move both branches, and the head check is for the new base.
    for (const b of current) {
      const moved = await this.pulls.markBaseMoved(input.repoId, b.branch, b.sha, tx);
      const active = moved
        .filter((c) => checkNowAfterBaseMove(c.issueUpdatedAt, now, this.settings.delayCheckForInactiveDays))
        .sort((x, y) => y.issueUpdatedAt.getTime() - x.issueUpdatedAt.getTime());
      active.forEach((c, rank) => checks.set(c.id, { data: checkJobData(c), priority: mergeCheckPriority(c.issueUpdatedAt, now, rank) }));
      recorded.delayed += moved.length - active.length;
    }
    for (const b of current) {
      for (const c of await this.moveHeads(tx, prepared, b.branch, b.sha, recorded, now)) {
        checks.set(c.id, { data: checkJobData(c), priority: MERGE_CHECK_URGENT_PRIORITY });
      }
    }
    recorded.checks = [...checks.values()];
    return recorded;
  }

  /** Failures are logged, never thrown: the refs moved; a lost check comes back from the `checking` state. */
  async afterCommit(recorded: RecordedRefUpdates): Promise<void> {
    const { input } = recorded.prepared;
    this.outbox.kick();
    // Checks first: jobs carry their commits, so workers start at once.
    for (const { data, error } of await this.queue.enqueueMany(recorded.checks)) {
      this.logger.warn(`could not queue the check of pull ${data.pullId}: ${error.message}`);
    }
    for (const h of recorded.pullHeads) {
      await updateRef(h.dir, pullHeadRef(h.index), h.sha, undefined, 'cairn: pull request head').catch((err: Error) =>
        this.logger.warn(`refs/pull/${h.index}/head in repository ${h.repoId}: ${err.message}`),
      );
    }
    void this.commitGraphs.schedule(input.dir, input.lines);
    await this.closeDeletedBranchPulls(recorded.prepared);
    if (recorded.checks.length || recorded.delayed) {
      this.logger.log(
        `ref updates in repository ${input.repoId}: ${recorded.checks.length} check(s) queued, ${recorded.delayed} delayed until viewed`,
      );
    }
  }

  /** Gitea's `CloseBranchPulls`; skipped when the branch exists again or no pusher is known. */
  private async closeDeletedBranchPulls(prepared: PreparedRefUpdates): Promise<void> {
    const { input, pusher } = prepared;
    if (input.pusherId === null) return;
    const actor = { id: input.pusherId, login: pusher?.login ?? '', isAdmin: false, scopes: [], hasTwoFactor: false };
    const scope = { actor, repo: { id: input.repoId, ownerId: input.ownerId, ownerName: input.ownerName, name: input.name }, access: 'owner' as const };
    for (const branch of deletedBranches(input.lines)) {
      if (await resolveBranch(input.dir, branch).catch(() => null)) continue;
      await this.pullsService.closeBranchPulls(scope, actor, branch).catch((err: Error) =>
        this.logger.warn(`closing the pull requests of deleted ${branch} in repository ${input.repoId}: ${err.message}`),
      );
    }
  }

  private async moveHeads(
    tx: Tx,
    prepared: PreparedRefUpdates,
    branch: string,
    sha: string,
    recorded: RecordedRefUpdates,
    now: Date,
  ): Promise<CandidateRow[]> {
    const rows = await this.pulls.openFromHead(tx, prepared.input.repoId, branch);
    const out: CandidateRow[] = [];
    for (const row of rows) {
      const pr = row.pullRequest;
      if (pr.headSha !== sha) {
        // A fork's commit must be in the base repository before a check or view looks for it.
        const dir = row.repoId === prepared.input.repoId ? prepared.input.dir : await this.copyHead(prepared.input, row.repoId, sha);
        if (dir === null) continue;
        await this.pulls.setCommits(tx, pr.id, { headSha: sha });
        const fresh = await this.pulls.touchIssue(tx, row.id, now);
        // Opened after `prepare` looked (rare): rendered now.
        let r = prepared.renderings.get(row.repoId);
        if (!r) {
          r = await this.renderer.prepareSystem(row.repoId, [fresh], prepared.input.pusherId);
          prepared.renderings.set(row.repoId, r);
        }
        await this.outbox.record(tx, PullRequestEvents.synchronized, {
          action: 'synchronized',
          number: fresh.index,
          pullRequest: r.pull(fresh),
          before: pr.headSha,
          after: sha,
          repository: r.repository,
          sender: r.sender,
        });
        const push = prepared.pullPushes.get(pr.id);
        if (push && push.from === pr.headSha && push.to === sha) {
          await this.issues.addComment(tx, {
            issueId: row.id, repoId: row.repoId, type: 'pull_push', posterId: prepared.input.pusherId ?? 0, body: push.body, now,
          });
        }
        recorded.pullHeads.push({ dir, repoId: row.repoId, index: row.index, sha });
      } else if (effectiveStatus(pr) !== 'checking') {
        continue;
      }
      out.push({ id: pr.id, repoId: pr.repoId, index: row.index, issueUpdatedAt: now, baseSha: pr.baseSha, headSha: sha });
    }
    return out;
  }

  /** Only a move to the current tip moves pulls: an older move recorded late must not. */
  private async isTip(dir: string, branch: string, sha: string): Promise<boolean> {
    const tip = await resolveBranch(dir, branch).catch(() => null);
    if (tip !== sha) this.logger.log(`not moving pull requests of ${branch} to ${sha}: the tip is ${tip ?? 'gone'}`);
    return tip === sha;
  }

  private async lookupPeople(input: RefUpdatesInput, emails: string[]): Promise<PushPeople> {
    const ids = [...new Set([input.ownerId, ...(input.pusherId === null ? [] : [input.pusherId])])];
    try {
      const reply = await this.rpc.send(IdentitySubjects.userLookup, {
        ids,
        ...(emails.length ? { emails } : {}),
      });
      return {
        users: new Map(reply.users.map((u) => [u.id, u])),
        byEmail: new Map(Object.entries(reply.byEmail ?? {}).map(([e, id]) => [e.toLowerCase(), id])),
      };
    } catch (err) {
      // The refs moved: record it even if names cannot be resolved now.
      this.logger.warn(`user lookup for a push event failed: ${(err as Error).message}`);
      return { users: new Map(), byEmail: new Map() };
    }
  }
}
