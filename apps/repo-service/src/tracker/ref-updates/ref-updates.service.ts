import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  IdentitySubjects, MERGE_CHECK_URGENT_PRIORITY, PullRequestEvents, RepoEvents, checkNowAfterBaseMove, isZeroId,
  mergeCheckPriority, repoUrls,
  type MergeCheckJobData, type PushEventData, type RefUpdate,
  type RepoEventRepository, type UserDto,
} from '@cairn/contracts';
import { RpcClient, EventOutbox } from '@cairn/platform';
import { REPO_SETTINGS, type RepoSettings } from '../../shared/config/repo-settings.js';
import { CommitGraphMaintainer } from '../../git-core/git/commit-graph-maintainer.js';
import { isAncestor, logRange, pullHeadRef, resolveBranch, updateRef } from '@cairn/git';
import type { Tx } from '../../shared/prisma/prisma.service.js';
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

/** What moved where, and who did it. */
export interface RefUpdatesInput {
  repoId: number;
  /** The repository's storage directory. */
  dir: string;
  /** Its owner (looked up with the pusher and the commit authors) and names (for commit URLs). */
  ownerId: number;
  ownerName: string;
  name: string;
  /** The exact ref updates, as git applied them. */
  lines: RefUpdateLine[];
  /** Who moved the refs (a pusher, or the user who merged or updated); null if nobody known. */
  pusherId: number | null;
}

/** Everything {@link RefUpdates.recordRefUpdates} needs, loaded before the transaction (no remote calls under locks). */
export interface PreparedRefUpdates {
  input: RefUpdatesInput;
  /** The ref updates as the push event carries them. */
  updates: RefUpdate[];
  /** Users found by the one identity lookup (pusher, owner, commit authors). */
  people: PushPeople;
  pusher: UserDto | null;
  /**
   * Rendering for pull-request events, by base repository (this one, and the base of each fork pull request from a
   * pushed branch); missing ones are rendered when needed.
   */
  renderings: Map<number, PullRendering>;
  /** The timeline entry of each pull request a pushed branch moves, by pull request id (see {@link pullPush}). */
  pullPushes: Map<number, PullPush>;
}

/**
 * A push to a pull request's head, as Gitea records it in the timeline (`pull_push`, its body JSON
 * `{"is_force_push", "commit_ids"}`): the commits added since the old head (oldest first), or for a force-push — the
 * old head not in the new history — the old and the new head.
 */
export interface PullPush {
  from: string;
  to: string;
  body: string;
}

/** Commit ids a `pull_push` entry lists at most (Gitea shows the first ones too). */
const PULL_PUSH_MAX_COMMITS = 250;

async function pullPush(dir: string, from: string, to: string): Promise<PullPush> {
  const forced = !(await isAncestor(dir, from, to).catch(() => false));
  const commitIds = forced
    ? [from, to]
    : (await logRange(dir, from, to, 0, PULL_PUSH_MAX_COMMITS)).commits.map((c) => c.sha).reverse();
  return { from, to, body: JSON.stringify({ is_force_push: forced, commit_ids: commitIds }) };
}

/** What a recording did, for the work after its commit. */
export interface RecordedRefUpdates {
  prepared: PreparedRefUpdates;
  /** `refs/pull/N/head` to move, in the base repository at `dir`. */
  pullHeads: { dir: string; repoId: number; index: number; sha: string }[];
  /** Checks to queue, at their priorities. */
  checks: { data: MergeCheckJobData; priority: number }[];
  /** Pull requests whose base moved but that stay delayed until viewed. */
  delayed: number;
}

/** The branches the updates delete. */
function deletedBranches(lines: RefUpdateLine[]): string[] {
  return lines.filter((l) => l.ref.startsWith('refs/heads/') && isZeroId(l.new)).map((l) => l.ref.slice('refs/heads/'.length));
}

/** The branch updates that leave a commit behind (deletions and other refs move no pull request). */
function movedBranches(lines: RefUpdateLine[]): { branch: string; sha: string }[] {
  return lines
    .filter((l) => l.ref.startsWith('refs/heads/') && !isZeroId(l.new))
    .map((l) => ({ branch: l.ref.slice('refs/heads/'.length), sha: l.new }))
    .sort((a, b) => (a.branch < b.branch ? -1 : a.branch > b.branch ? 1 : 0));
}

/**
 * The one home of "a branch moved" (pushes, and repo-service's own merges, branch updates and deletions), in three
 * steps: {@link prepare} before the transaction (no remote calls under locks), {@link recordRefUpdates} inside it
 * (push event, pull heads and bases, through the outbox), {@link afterCommit} after it (refs, caches, queued checks,
 * pulls of deleted branches closed). Needs no merge-check-worker: queued checks wait in Redis.
 */
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

  /** Step 1 (before the transaction). */
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
    // Pull requests from a fork's branch: the new commits are copied into their base repositories before anything
    // names them there (the copy is repeated, cheaply, for one opened meanwhile: see moveHeads).
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
      // Both heads are in the pushed repository (a fork's old head too): read there.
      pullPushes.set(row.pullRequest.id, await pullPush(input.dir, from, sha).catch(() => ({
        from, to: sha, body: JSON.stringify({ is_force_push: true, commit_ids: [from, sha] }),
      })));
    }
    return { input, updates, people, pusher, renderings, pullPushes };
  }

  /** Copies a fork's pushed commit into a base repository; null when that failed (the pull keeps its head until the next push). */
  private async copyHead(input: RefUpdatesInput, baseRepoId: number, sha: string): Promise<string | null> {
    return this.heads.copyIntoRepo(baseRepoId, input.dir, sha).catch((err: Error) => {
      this.logger.warn(`copying ${sha} of repository ${input.repoId} into repository ${baseRepoId} failed: ${err.message}`);
      return null;
    });
  }

  /**
   * Serialises recordings of the same branches (advisory locks in name order), so a slower recording of an older
   * move never moves a pull request back; callers changing pull rows first take these before row locks (no deadlock).
   */
  async lockBranches(tx: Tx, prepared: PreparedRefUpdates): Promise<void> {
    for (const { branch } of movedBranches(prepared.input.lines)) {
      await this.pulls.lockBranch(tx, prepared.input.repoId, branch);
    }
  }

  /**
   * Step 2 (inside the caller's transaction). `repository` is the repository as the event carries it (a push may
   * have changed the row in the same transaction); `sender` overrides the pusher of the pull-request events.
   */
  async recordRefUpdates(tx: Tx, prepared: PreparedRefUpdates, repository: RepoEventRepository): Promise<RecordedRefUpdates> {
    const { input } = prepared;
    const push: PushEventData = { repository, pusher: prepared.pusher, updates: prepared.updates };
    // Several events when one would be too large for NATS (hundreds of refs): see push-event.ts.
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
    // Bases first: a push may move both branches of a pull request, and its head check is for the new base.
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

  /**
   * Step 3 (after the commit): failures are logged, never thrown — the refs moved and the events are stored. A check
   * lost to a crash here comes back from the `checking` state (views, merges and `PendingChecks` at start queue it).
   */
  async afterCommit(recorded: RecordedRefUpdates): Promise<void> {
    const { input } = recorded.prepared;
    this.outbox.kick();
    // The checks first: they need none of what follows (a job carries its commits), so workers start at once.
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

  /** Closes the open pulls of deleted branches (Gitea's `CloseBranchPulls`), unless the branch exists again or no pusher is known. */
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

  /** Pulls from `branch` (here or from this fork) get the new head and a `synchronized` event; returned to be checked. */
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
        // A fork's commit must be in the base repository before the check or a view looks for it there.
        const dir = row.repoId === prepared.input.repoId ? prepared.input.dir : await this.copyHead(prepared.input, row.repoId, sha);
        if (dir === null) continue;
        await this.pulls.setCommits(tx, pr.id, { headSha: sha });
        const fresh = await this.pulls.touchIssue(tx, row.id, now);
        // A pull request opened after `prepare` looked (rare): rendered now.
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

  /** Only a move to the branch's current tip (read from git) moves pull requests: an older move recorded late must not. */
  private async isTip(dir: string, branch: string, sha: string): Promise<boolean> {
    const tip = await resolveBranch(dir, branch).catch(() => null);
    if (tip !== sha) this.logger.log(`not moving pull requests of ${branch} to ${sha}: the tip is ${tip ?? 'gone'}`);
    return tip === sha;
  }

  /** One identity call for the pusher, the owner and the commit authors/committers (by e-mail). */
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
      // The refs moved: record it even if names cannot be resolved right now.
      this.logger.warn(`user lookup for a push event failed: ${(err as Error).message}`);
      return { users: new Map(), byEmail: new Map() };
    }
  }
}
