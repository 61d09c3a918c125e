import { Injectable } from '@nestjs/common';
import {
  DomainError, IssueCommentEvents,
  type ActorDto, type CommentDto, type CreateIssueCommentRequest, type EditIssueCommentRequest,
  type IssueCommentIdRequest, type IssueIndexRequest, type Paginated, type PullRequestDto,
  type RepositoryDto,
} from '@cairn/contracts';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { isPullRow, toPullDto } from '../issue-core/pull.mapper.js';
import { issueUserIds, toCommentDto, toIssueDto, type IssueRenderContext } from '../issue-core/issue.mapper.js';
import { IssuesRepository, type CommentRow, type IssueRow } from '../issue-core/issues.repository.js';
import { assertMayComment, canModify, narrowToIssueUnit } from '../issue-core/issue-permissions.js';
import { requireActor } from '../../foundation/access/require-actor.js';
import { RepoViews, type ViewScope } from '../../git-core/repositories/repo-views.js';
import { inTx } from '../../foundation/prisma/tx.js';
import { EventOutbox } from '@cairn/platform';

/** While an issue is locked only writers may comment, and readers no longer edit theirs (deleting stays, as Gitea). */
@Injectable()
export class CommentsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly issues: IssuesRepository,
    private readonly views: RepoViews,
    private readonly outbox: EventOutbox,
  ) {}

  private async issueOf(req: IssueIndexRequest): Promise<IssueRow> {
    const row = await this.issues.findByIndex(req.repo.id, req.index);
    if (!row) throw DomainError.notFound('issue not found');
    narrowToIssueUnit(req, row, 'issue not found');
    return row;
  }

  private async commentOf(req: IssueCommentIdRequest): Promise<{ comment: CommentRow; issue: IssueRow }> {
    const comment = await this.issues.findComment(req.repo.id, req.commentId);
    if (!comment || comment.type !== 'comment') throw DomainError.notFound('comment not found');
    const issue = await this.issues.findById(req.repo.id, comment.issueId);
    if (!issue) throw DomainError.notFound('comment not found');
    narrowToIssueUnit(req, issue, 'comment not found');
    return { comment, issue };
  }

  /** `GET …/issues/{index}/comments`: every plain comment, oldest first (Gitea does not paginate it). */
  async list(req: IssueIndexRequest): Promise<Paginated<CommentDto>> {
    const issue = await this.issueOf(req);
    const rows = await this.issues.listComments(issue.id, ['comment']);
    const ctx = await this.views.context(req, rows.map((r) => r.posterId));
    return { items: rows.map((r) => toCommentDto(r, issue, ctx)), total: rows.length };
  }

  async get(req: IssueCommentIdRequest): Promise<CommentDto> {
    const { comment, issue } = await this.commentOf(req);
    return toCommentDto(comment, issue, await this.views.context(req, [comment.posterId]));
  }

  async create(req: CreateIssueCommentRequest): Promise<CommentDto> {
    const actor = requireActor(req.actor);
    const issue = await this.issueOf(req);
    assertMayComment(issue, req, actor, 'comment');
    const now = new Date();
    const event = await this.eventContext(req, actor, issue);
    const dto = await inTx(this.prisma, async (tx) => {
      const row = await this.issues.addComment(tx, {
        issueId: issue.id,
        repoId: issue.repoId,
        type: 'comment',
        posterId: actor.id,
        body: req.body.body,
        now,
      });
      const updated = (await this.issues.findById(req.repo.id, issue.id, tx))!;
      const out = toCommentDto(row, updated, event.ctx);
      await this.outbox.record(tx, IssueCommentEvents.created, {
        action: 'created',
        ...event.payload(updated),
        comment: out,
      });
      return out;
    });
    this.outbox.kick();
    return dto;
  }

  async edit(req: EditIssueCommentRequest): Promise<CommentDto> {
    const actor = requireActor(req.actor);
    const { comment, issue } = await this.commentOf(req);
    if (!canModify(req, comment.posterId)) throw DomainError.forbidden('user should have permission to edit the comment');
    assertMayComment(issue, req, actor, 'edit comments');
    if (comment.body === req.body.body) {
      return toCommentDto(comment, issue, await this.views.context(req, [comment.posterId]));
    }
    const event = await this.eventContext(req, actor, issue, [comment.posterId]);
    const now = new Date();
    const dto = await inTx(this.prisma, async (tx) => {
      const row = await this.issues.updateComment(tx, comment.id, req.body.body, now);
      const out = toCommentDto(row, issue, event.ctx);
      await this.outbox.record(tx, IssueCommentEvents.edited, {
        action: 'edited',
        ...event.payload(issue),
        comment: out,
        changes: { body: { from: comment.body } },
      });
      return out;
    });
    this.outbox.kick();
    return dto;
  }

  async delete(req: IssueCommentIdRequest): Promise<void> {
    const actor = requireActor(req.actor);
    const { comment, issue } = await this.commentOf(req);
    if (!canModify(req, comment.posterId)) throw DomainError.forbidden('user should have permission to delete the comment');
    const event = await this.eventContext(req, actor, issue, [comment.posterId]);
    const deleted = await inTx(this.prisma, async (tx) => {
      if (!(await this.issues.deleteComment(tx, comment))) return false;
      const updated = (await this.issues.findById(req.repo.id, issue.id, tx))!;
      await this.outbox.record(tx, IssueCommentEvents.deleted, {
        action: 'deleted',
        ...event.payload(updated),
        comment: toCommentDto(comment, updated, event.ctx),
      });
      return true;
    });
    if (deleted) this.outbox.kick();
  }

  private async eventContext(scope: ViewScope & { repo: { ownerId: number } }, actor: ActorDto, issue: IssueRow, more: number[] = []) {
    const users = await this.views.users([actor.id, ...issueUserIds(issue), scope.repo.ownerId, ...more]);
    const repo = await this.views.repository(scope.repo.id, scope.access, users);
    const sender = await this.views.sender(actor, users);
    const ctx: IssueRenderContext = { rootUrl: this.views.rootUrl, repo: scope.repo, users };
    const pullJson = (row: IssueRow, repoJson: RepositoryDto): PullRequestDto | undefined =>
      isPullRow(row) ? toPullDto(row, { ...ctx, repoJson }) : undefined;
    return {
      ctx,
      payload: (row: IssueRow) => ({
        issue: toIssueDto(row, ctx),
        ...(row.isPull ? { pullRequest: pullJson(row, repo.json) } : {}),
        isPull: row.isPull,
        repository: repo.event,
        sender,
      }),
    };
  }
}
