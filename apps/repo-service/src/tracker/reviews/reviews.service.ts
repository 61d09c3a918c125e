import { Injectable } from '@nestjs/common';
import {
  DomainError, PullReviewEvents, accessAtLeast, countsAsOfficialReview, isWriterOrAuthor, toPaging,
  type ActorDto, type CreatePullReviewRequest, type DismissPullReviewRequest, type ListPullReviewsRequest, type Paginated,
  type PullReviewCommentDto, type PullReviewDto, type PullReviewEventData, type PullReviewIdRequest,
  type PullIndexRequest, type PullReviewRequestsRequest, type PullReviewSummaryDto, type SubmitPullReviewRequest,
  type TeamDto, type UserDto,
} from '@cairn/contracts';
import { EventOutbox } from '@cairn/platform';
import { teamReachesRepo } from '../../foundation/access/access-level.js';
import { AccessService } from '../../foundation/access/access.service.js';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { PrismaService, type Tx } from '../../foundation/prisma/prisma.service.js';
import { PullRenderer } from '../issue-core/pull-renderer.js';
import { PullsService } from '../pulls/pulls.service.js';
import { requireActor } from '../../foundation/access/require-actor.js';
import type { PullIssueRow } from '../issue-core/pull.mapper.js';
import type { ViewScope } from '../../git-core/repositories/repo-views.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { inTx } from '../../foundation/prisma/tx.js';
import { BranchProtectionService } from '../../code/branch-protection/branch-protection.service.js';
import { Approvals } from './approvals.js';
import { toReviewCommentDto, toReviewDto, type ReviewRenderContext } from '../issue-core/review.mapper.js';
import { ReviewsRepository, type ReviewRow, type ReviewType } from '../issue-core/reviews.repository.js';

/** `event` of create/submit → stored kind (Gitea's `preparePullReviewType`): anything else stays a draft. */
const TYPE_OF_EVENT: Record<string, ReviewType> = { APPROVED: 'approve', REQUEST_CHANGES: 'reject', COMMENT: 'comment' };
interface NamedReviewers {
  users: UserDto[];
  /** Teams of the owning organization with their member ids (always empty on repositories of users, as Gitea). */
  teams: Array<{ team: TeamDto; memberIds: number[] }>;
}

const HOOK_TYPE: Partial<Record<ReviewType, 'approved' | 'rejected' | 'comment'>> = {
  approve: 'approved',
  reject: 'rejected',
  comment: 'comment',
};

// Gitea's rules: one draft review per reviewer, seen only by them; no judging one's own pull; writers' verdicts are
// official (latest only); admins dismiss; closed pulls take no verdicts or requests.
@Injectable()
export class ReviewsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly reviews: ReviewsRepository,
    private readonly pulls: PullsService,
    private readonly renderer: PullRenderer,
    private readonly views: RepoViews,
    private readonly access: AccessService,
    private readonly identity: IdentityDirectory,
    private readonly outbox: EventOutbox,
    private readonly approvals: Approvals,
    private readonly protection: BranchProtectionService,
  ) {}

  /** Where the reviews stand for merging, counted as the merge rules count them (`Approvals`, the base's rule). */
  async summary(req: PullIndexRequest): Promise<PullReviewSummaryDto> {
    const pull = await this.pulls.load(req.repo.id, req.index);
    const [rule, standings] = await Promise.all([
      this.protection.ruleFor(req.repo.id, pull.pullRequest.baseBranch),
      this.reviews.standings([pull.id]),
    ]);
    return {
      approvals: await this.approvals.approvalsCount(pull, { dismissStale: rule?.dismissStaleApprovals ?? false }),
      required_approvals: rule?.requiredApprovals ?? 0,
      change_requests: (standings.get(pull.id) ?? []).filter((r) => r.type === 'reject' && !r.dismissed).length,
      block_on_rejected_reviews: rule?.blockOnRejectedReviews ?? false,
    };
  }

  async list(req: ListPullReviewsRequest): Promise<Paginated<PullReviewDto>> {
    const pull = await this.pulls.load(req.repo.id, req.index);
    const page = await this.reviews.list(pull.id, req.actor?.id ?? null, toPaging(req.query ?? {}));
    const ctx = await this.context(req, pull, page.rows.map((r) => r.reviewerId), undefined, page.rows.map((r) => r.reviewerTeamId).filter((id) => id > 0));
    return { items: page.rows.map((r) => toReviewDto(r, ctx)), total: page.total };
  }

  async get(req: PullReviewIdRequest): Promise<PullReviewDto> {
    const { pull, review } = await this.loadReview(req);
    return toReviewDto(review, await this.context(req, pull, [review.reviewerId], undefined, review.reviewerTeamId > 0 ? [review.reviewerTeamId] : []));
  }

  async comments(req: PullReviewIdRequest): Promise<PullReviewCommentDto[]> {
    const { pull, review } = await this.loadReview(req);
    const rows = await this.reviews.comments(review.id);
    const ctx = await this.context(req, pull, rows.map((c) => c.posterId));
    return rows.map((c) => toReviewCommentDto(c, ctx));
  }

  /** Creates the actor's review (adding to their draft if they have one); submitted at once unless `event` is pending. */
  async create(req: CreatePullReviewRequest): Promise<PullReviewDto> {
    const actor = requireActor(req.actor);
    const pull = await this.pulls.load(req.repo.id, req.index);
    const body = req.body ?? {};
    const comments = (body.comments ?? []).map((c) => ({
      path: c.path.trim(),
      // Gitea's signed line: the old side when `old_position` is given.
      line: (c.old_position ?? 0) > 0 ? -(c.old_position as number) : (c.new_position ?? 0),
      body: c.body,
    }));
    if (comments.some((c) => !c.path || c.path.includes('\0'))) throw DomainError.unprocessable('comment path is invalid');
    const type = this.reviewType(pull, actor, body.event, body.body, comments.length > 0);
    const commitId = body.commit_id || pull.pullRequest.headSha;
    return this.submit(req, actor, pull, type, body.body ?? '', commitId, comments);
  }

  async submitPending(req: SubmitPullReviewRequest): Promise<PullReviewDto> {
    const actor = requireActor(req.actor);
    const { pull, review } = await this.loadReview(req);
    if (review.type !== 'pending') throw DomainError.unprocessable('only a pending review can be submitted');
    const type = this.reviewType(pull, actor, req.body?.event, req.body?.body, review._count.comments > 0);
    if (type === 'pending') throw DomainError.unprocessable('review stay pending');
    return this.submit(req, actor, pull, type, req.body?.body ?? '', pull.pullRequest.headSha, []);
  }

  async delete(req: PullReviewIdRequest): Promise<null> {
    const actor = requireActor(req.actor);
    const { review } = await this.loadReview(req);
    if (!actor.isAdmin && actor.id !== review.reviewerId) throw DomainError.forbidden('only the reviewer or a site administrator can delete a review');
    await this.reviews.remove(this.prisma, review.id);
    return null;
  }

  async dismiss(req: DismissPullReviewRequest): Promise<PullReviewDto> {
    return this.setDismissed(req, true, req.body?.priors === true);
  }

  async undismiss(req: PullReviewIdRequest): Promise<PullReviewDto> {
    return this.setDismissed(req, false, false);
  }

  /** Replies the new requests; a team request notifies each member but the poster (Gitea's `TeamReviewRequest`). */
  async requestAdd(req: PullReviewRequestsRequest): Promise<PullReviewDto[]> {
    const actor = requireActor(req.actor);
    const pull = await this.pulls.load(req.repo.id, req.index);
    const { users: reviewers, teams } = await this.reviewersOf(req);
    if (pull.state !== 'open') throw DomainError.forbidden('cannot request reviews on a closed pull request');
    const standings = (await this.reviews.standings([pull.id])).get(pull.id) ?? [];
    const mayChoose = isWriterOrAuthor(req.access, actor.id, pull.posterId);
    for (const reviewer of reviewers) {
      if (reviewer.id === pull.posterId) throw DomainError.unprocessable(`${reviewer.login}: the poster of a pull request cannot be its reviewer`);
      if (!mayChoose) throw DomainError.unprocessable('only the poster or users with write access can request reviews');
      // Gitea's `isValidReviewRequest`: the reviewer must read pull requests (a team may give that unit nothing).
      const level = await this.access.unitAccessById({ id: reviewer.id, isAdmin: false }, req.repo.id, 'pulls');
      if (!accessAtLeast(level, 'read')) throw DomainError.unprocessable(`${reviewer.login}: the reviewer cannot read the repository`);
    }
    if (teams.length) {
      if (!mayChoose) throw DomainError.unprocessable('only the poster or users with write access can request reviews');
      // Gitea's `isValidTeamReviewRequest`: on a private repository the team must reach it.
      const granted = req.repo.private ? await this.access.grantedTeamIds(req.repo.id) : null;
      for (const { team } of teams) {
        if (granted && !teamReachesRepo({ id: team.id, includesAllRepositories: team.includes_all_repositories }, granted)) {
          throw DomainError.unprocessable(`${team.name}: the reviewing team cannot read the repository`);
        }
      }
    }
    const fresh = reviewers.filter((u) => standings.find((s) => s.reviewerId === u.id)?.type !== 'request');
    const askedTeams = new Set(((await this.reviews.teamRequests([pull.id])).get(pull.id) ?? []).map((r) => r.reviewerTeamId));
    const freshTeams = teams.filter((t) => !askedTeams.has(t.team.id));
    if (fresh.length === 0 && freshTeams.length === 0) return [];
    // Members told of a team's request (the poster is not); bounded by the lookup's member limit.
    const notified = freshTeams.map((t) => ({ team: t.team, memberIds: t.memberIds.filter((id) => id !== pull.posterId) }));
    const r = await this.renderer.prepare(req, [pull], actor, [...fresh.map((u) => u.id), ...notified.flatMap((t) => t.memberIds)]);
    const created = await inTx(this.prisma, async (tx) => {
      const rows: ReviewRow[] = [];
      for (const reviewer of fresh) {
        rows.push(await this.reviews.insert(tx, { repoId: req.repo.id, issueId: pull.id, type: 'request', reviewerId: reviewer.id }));
      }
      for (const { team } of freshTeams) {
        rows.push(await this.reviews.insert(tx, { repoId: req.repo.id, issueId: pull.id, type: 'request', reviewerId: 0, reviewerTeamId: team.id }));
      }
      const pullDto = await this.pullJson(req, pull, actor, tx);
      const requested = [...fresh, ...notified.flatMap((t) => t.memberIds.map((id) => r.ctx.users.get(id)).filter((u): u is UserDto => !!u))];
      for (const reviewer of requested) {
        await this.record(tx, { action: 'review_requested', number: pull.index, pullRequest: pullDto, requestedReviewer: reviewer, repository: r.repository, sender: r.sender });
      }
      return rows;
    });
    this.outbox.kick();
    const ctx = await this.context(req, pull, fresh.map((u) => u.id), freshTeams.map((t) => t.team));
    return created.map((row) => toReviewDto(row, ctx));
  }

  /** `DELETE …/requested_reviewers`: withdraws open requests (the poster, writers, or the reviewer themselves). */
  async requestRemove(req: PullReviewRequestsRequest): Promise<null> {
    const actor = requireActor(req.actor);
    const pull = await this.pulls.load(req.repo.id, req.index);
    const { users: reviewers, teams } = await this.reviewersOf(req);
    if (pull.state !== 'open') throw DomainError.forbidden('cannot change review requests on a closed pull request');
    const mayChoose = isWriterOrAuthor(req.access, actor.id, pull.posterId);
    for (const reviewer of reviewers) {
      if (!mayChoose && reviewer.id !== actor.id) throw DomainError.unprocessable('only the poster or users with write access can remove review requests');
    }
    if (teams.length && !mayChoose) throw DomainError.unprocessable('only the poster or users with write access can remove review requests');
    const standings = (await this.reviews.standings([pull.id])).get(pull.id) ?? [];
    const open = reviewers
      .map((u) => ({ user: u, row: standings.find((s) => s.reviewerId === u.id && s.type === 'request') }))
      .filter((x): x is { user: UserDto; row: ReviewRow } => !!x.row);
    const teamIds = new Set(teams.map((t) => t.team.id));
    // A withdrawn team request notifies nobody (Gitea's `TeamReviewRequest` only notifies additions).
    const openTeams = ((await this.reviews.teamRequests([pull.id])).get(pull.id) ?? []).filter((row) => teamIds.has(row.reviewerTeamId));
    if (open.length === 0 && openTeams.length === 0) return null;
    const r = await this.renderer.prepare(req, [pull], actor, open.map((x) => x.user.id));
    await inTx(this.prisma, async (tx) => {
      for (const { row } of [...open, ...openTeams.map((row) => ({ row }))]) await this.reviews.remove(tx, row.id);
      const pullDto = await this.pullJson(req, pull, actor, tx);
      for (const { user } of open) {
        await this.record(tx, { action: 'review_request_removed', number: pull.index, pullRequest: pullDto, requestedReviewer: user, repository: r.repository, sender: r.sender });
      }
    });
    this.outbox.kick();
    return null;
  }


  /** Gitea's `preparePullReviewType`: the kind asked for, with its rules about bodies and own pull requests. */
  private reviewType(pull: PullIssueRow, actor: ActorDto, event: string | undefined, body: string | undefined, hasComments: boolean): ReviewType {
    const type = TYPE_OF_EVENT[(event ?? '').toUpperCase()] ?? 'pending';
    const hasBody = (body ?? '').trim().length > 0;
    if (type === 'approve' && actor.id === pull.posterId) throw DomainError.unprocessable('approve your own pull is not allowed');
    if (type === 'reject' && actor.id === pull.posterId) throw DomainError.unprocessable('reject your own pull is not allowed');
    if (type === 'reject' && !hasBody) throw DomainError.unprocessable(`review event ${event} requires a body`);
    if (type === 'comment' && !hasBody && !hasComments) throw DomainError.unprocessable(`review event ${event} requires a body or a comment`);
    return type;
  }

  /** Stores the review (the actor's draft becomes it, if any) and publishes the webhook event once submitted. */
  private async submit(
    req: ViewScope & { repo: { id: number } },
    actor: ActorDto,
    pull: PullIssueRow,
    type: ReviewType,
    body: string,
    commitId: string,
    comments: { path: string; line: number; body: string }[],
  ): Promise<PullReviewDto> {
    if ((type === 'approve' || type === 'reject') && (pull.state !== 'open' || pull.pullRequest.merged)) {
      throw DomainError.unprocessable('can not approve/reject changes for an already merged or closed PR');
    }
    // Write access makes approvals and change requests official (branch protection may narrow this later).
    const official = (type === 'approve' || type === 'reject') && countsAsOfficialReview(req.access);
    const r = type === 'pending' ? null : await this.renderer.prepare(req, [pull], actor);
    const saved = await inTx(this.prisma, async (tx) => {
      const draft = await this.reviews.findPending(pull.id, actor.id, tx);
      const row = draft
        ? await this.reviews.update(tx, draft.id, type === 'pending' && !body ? {} : { type, body, commitId, official })
        : await this.reviews.insert(tx, { repoId: req.repo.id, issueId: pull.id, type, reviewerId: actor.id, body, commitId, official });
      await this.reviews.addComments(tx, row.id, actor.id, commitId, comments);
      if (official) await this.reviews.unofficialEarlier(tx, pull.id, actor.id, row.id);
      const hookType = HOOK_TYPE[type];
      if (r && hookType) {
        await this.record(tx, {
          action: 'reviewed',
          number: pull.index,
          pullRequest: await this.pullJson(req, pull, actor, tx),
          review: { type: hookType, content: body },
          repository: r.repository,
          sender: r.sender,
        });
      }
      return (await this.reviews.find(pull.id, row.id, tx))!;
    });
    if (r) this.outbox.kick();
    return toReviewDto(saved, await this.context(req, pull, [actor.id]));
  }

  private async setDismissed(req: PullReviewIdRequest, dismissed: boolean, priors: boolean): Promise<PullReviewDto> {
    requireActor(req.actor);
    const { pull, review } = await this.loadReview(req);
    if (review.type !== 'approve' && review.type !== 'reject') {
      throw DomainError.forbidden("not need to dismiss this review because it's type is not Approve or change request");
    }
    if (pull.state !== 'open' || pull.pullRequest.merged) throw DomainError.forbidden('cannot dismiss a review of a closed pull request');
    const saved = await inTx(this.prisma, async (tx) => {
      if (priors) await this.reviews.dismissEarlier(tx, pull.id, review.reviewerId, review.id);
      return this.reviews.update(tx, review.id, { dismissed });
    });
    return toReviewDto(saved, await this.context(req, pull, [saved.reviewerId]));
  }

  /** The review by id within the pull request; another user's draft is NOT_FOUND (site admins see it). */
  private async loadReview(req: PullReviewIdRequest): Promise<{ pull: PullIssueRow; review: ReviewRow }> {
    const pull = await this.pulls.load(req.repo.id, req.index);
    const review = await this.reviews.find(pull.id, req.id);
    if (!review) throw DomainError.notFound('review not found');
    if (review.type === 'pending' && review.reviewerId !== req.actor?.id && !req.actor?.isAdmin) {
      throw DomainError.notFound('review not found');
    }
    return { pull, review };
  }

  /** Users by login (or e-mail, as Gitea) and the owning org's teams by name; NOT_FOUND for an unknown one. */
  private async reviewersOf(req: PullReviewRequestsRequest): Promise<NamedReviewers> {
    const names = [...new Set((req.body?.reviewers ?? []).map((n) => n.trim()).filter(Boolean))];
    const users: UserDto[] = [];
    for (const name of names) {
      const user = name.includes('@')
        ? (await this.views.usersByEmail([name])).get(name.toLowerCase())
        : await this.identity.userByLogin(name);
      if (!user) throw DomainError.notFound(`User '${name}' not exist`);
      users.push(user);
    }
    const teamNames = [...new Set((req.body?.team_reviewers ?? []).map((n) => n.trim()).filter(Boolean))];
    if (!teamNames.length || (await this.views.repositoryCached(req.repo.id)).row.ownerKind !== 'organization') return { users, teams: [] };
    const found = await this.identity.teams({ orgId: req.repo.ownerId, names: teamNames, withMembers: true });
    const teams = teamNames.map((name) => {
      const hit = found.find((t) => t.team.name.toLowerCase() === name.toLowerCase());
      if (!hit) throw DomainError.notFound(`Team '${name}' not exist`);
      return { team: hit.team, memberIds: hit.memberIds ?? [] };
    });
    return { users, teams: [...new Map(teams.map((t) => [t.team.id, t])).values()] };
  }

  /** What review JSON needs; the teams of team review requests are looked up when not given. */
  private async context(scope: ViewScope, pull: PullIssueRow, userIds: number[], teams?: TeamDto[], teamIds: number[] = []): Promise<ReviewRenderContext> {
    const [users, looked] = await Promise.all([
      this.views.users(userIds),
      teams ?? this.identity.teams({ orgId: scope.repo.ownerId, ids: [...new Set(teamIds)] }).then((list) => list.map((t) => t.team)),
    ]);
    return {
      rootUrl: this.views.rootUrl, repo: scope.repo, users, index: pull.index, headSha: pull.pullRequest.headSha,
      teams: new Map(looked.map((t) => [t.id, t])),
    };
  }

  /** The pull request's JSON as the transaction sees it (with its review requests). */
  private async pullJson(scope: ViewScope, pull: PullIssueRow, actor: ActorDto, tx: Tx) {
    const r = await this.renderer.prepare(scope, [pull], actor, [], tx);
    return r.pull(pull);
  }

  private record(tx: Tx, data: PullReviewEventData): Promise<void> {
    const subject = data.action === 'reviewed'
      ? PullReviewEvents.submitted
      : data.action === 'review_requested' ? PullReviewEvents.requested : PullReviewEvents.requestRemoved;
    return this.outbox.record(tx, subject, data);
  }
}
