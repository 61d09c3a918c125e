import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, IssueEvents, toPaging,
  type ActorDto, type CreateIssueRequest, type EditIssueBody, type EditIssueRequest, type IssueDto,
  type IssueIndexRequest, type IssueTimelineRequest, type ListIssuesRequest, type LockIssueRequest, type Paginated,
  type RepoScopedRequest, type TimelineCommentDto, type UserDto,
} from '@cairn/contracts';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { PullsService } from '../pulls/pulls.service.js';
import { ISSUE_SETTINGS, type IssueSettings } from './issue-settings.js';
import { issueUserIds, timelineUserIds, toIssueDto, toTimelineDto, type TimelineRefs } from '../issue-core/issue.mapper.js';
import { toLabelDto, toMilestoneDto } from '../issue-core/label.mapper.js';
import { IssuesRepository, type IssueRow } from '../issue-core/issues.repository.js';
import { canModify, narrowToIssueUnit, readableIssueKinds } from '../issue-core/issue-permissions.js';
import { requireActor } from '../../foundation/access/require-actor.js';
import { checkLockReason } from './lock-reasons.js';
import { RepoViews, type ViewScope } from '../../git-core/repositories/repo-views.js';
import { applyIssueEdit, type TitleBodyStateEdit } from '../issue-core/issue-edit.js';
import { inTx } from '../../foundation/prisma/tx.js';
import { Assignees } from '../issue-core/assignees.js';
import { IdentityDirectory } from '../../foundation/access/identity-directory.js';
import { EventOutbox } from '@cairn/platform';
import { LabelsRepository } from '../labels/labels.repository.js';
import { NewIssueExtras } from '../labels/new-issue-extras.js';
import { MilestonesService } from '../milestones/milestones.service.js';

/** Pull-request specific rules (reopening, events with the pull-request JSON) are delegated to {@link PullsService}. */
@Injectable()
export class IssuesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly issues: IssuesRepository,
    private readonly pulls: PullsService,
    private readonly views: RepoViews,
    private readonly outbox: EventOutbox,
    private readonly assignees: Assignees,
    private readonly identity: IdentityDirectory,
    private readonly extras: NewIssueExtras,
    private readonly labels: LabelsRepository,
    private readonly milestones: MilestonesService,
    @Inject(ISSUE_SETTINGS) private readonly settings: IssueSettings,
  ) {}

  /** The issue (or pull request) of the request, or NOT_FOUND; the request is judged by its unit from then on. */
  async load(req: IssueIndexRequest): Promise<IssueRow> {
    const row = await this.issues.findByIndex(req.repo.id, req.index);
    if (!row) throw DomainError.notFound('issue not found');
    narrowToIssueUnit(req, row, 'issue not found');
    return row;
  }

  async create(req: CreateIssueRequest): Promise<IssueDto> {
    const actor = requireActor(req.actor);
    narrowToIssueUnit(req, { isPull: false }, 'not found');
    const now = new Date();
    const assigneeIds = (await this.assignees.resolve(req, req.body)) ?? [];
    const users = await this.views.users([actor.id, req.repo.ownerId, ...assigneeIds]);
    const repo = await this.views.repository(req.repo.id, req.access, users);
    const ctx = { rootUrl: this.views.rootUrl, repo: req.repo, users };
    const sender = await this.views.sender(actor, users);
    const extras = await this.extras.check(req, req.body);
    const dto = await inTx(this.prisma, async (tx) => {
      const index = await this.issues.allocateIndex(tx, req.repo.id);
      const issue = await this.issues.insertIssue(tx, {
        repoId: req.repo.id,
        index,
        isPull: false,
        title: req.body.title.trim(),
        body: req.body.body ?? '',
        posterId: actor.id,
        closed: req.body.closed === true,
        now,
      });
      await this.issues.setAssignees(tx, issue.id, assigneeIds);
      await this.extras.apply(tx, issue.id, extras, now);
      const out = toIssueDto((await this.issues.findById(req.repo.id, issue.id, tx))!, ctx);
      await this.outbox.record(tx, IssueEvents.opened, {
        action: 'opened',
        number: index,
        issue: out,
        isPull: false,
        repository: repo.event,
        sender,
      });
      // Gitea notifies each assignment of a new issue too.
      for (const id of assigneeIds) {
        await this.outbox.record(tx, IssueEvents.assigned, {
          action: 'assigned', number: index, issue: out, isPull: false, assignee: users.get(id), repository: repo.event, sender,
        });
      }
      return out;
    });
    this.outbox.kick();
    return dto;
  }

  async list(req: ListIssuesRequest): Promise<Paginated<IssueDto>> {
    const q = req.query ?? {};
    const paging = toPaging(q);
    let assigneeId: number | undefined;
    if (q.assigned_by) {
      const user = await this.identity.userByLogin(q.assigned_by);
      if (!user) throw DomainError.unprocessable(`user does not exist [name: ${q.assigned_by.slice(0, 100)}]`);
      assigneeId = user.id;
    }
    let posterId: number | undefined;
    if (q.created_by) {
      const user = await this.identity.userByLogin(q.created_by);
      if (!user) throw DomainError.unprocessable(`user does not exist [name: ${q.created_by.slice(0, 100)}]`);
      posterId = user.id;
    }
    const labelIds = await this.labelFilter(req, q.labels);
    const milestoneIds = q.milestones ? await this.milestones.idsForFilter(req.repo.id, splitList(q.milestones)) : undefined;
    // A label that does not exist is carried by no issue; nor does a kind (issues, pulls) the reader may not read.
    const isPull = readableIssueKinds(req, q.type === 'pulls' ? true : q.type === 'issues' ? false : undefined);
    if (labelIds === null || isPull === null) return { items: [], total: 0 };
    const page = await this.issues.list(
      req.repo.id,
      {
        state: q.state ?? 'open',
        isPull,
        keyword: q.q?.trim() || undefined,
        assigneeId,
        posterId,
        labelIds,
        milestoneIds,
      },
      paging,
    );
    const ctx = await this.views.context(req, page.items.flatMap(issueUserIds));
    return { items: page.items.map((r) => toIssueDto(r, ctx)), total: page.total };
  }

  /** `labels=a,b`: the ids of those labels (repository's or organization's), null when one does not exist. */
  private async labelFilter(req: ListIssuesRequest, labels: string | undefined): Promise<number[] | undefined | null> {
    const names = labels ? splitList(labels) : [];
    if (!names.length) return undefined;
    const row = await this.views.row(req.repo.id);
    const found = await this.labels.usableByNames({ repoId: row.id, orgId: row.ownerKind === 'organization' ? row.ownerId : null }, names);
    const ids: number[] = [];
    for (const name of new Set(names)) {
      const matching = found.filter((l) => l.name === name);
      if (!matching.length) return null;
      ids.push(matching[0].id);
    }
    return ids;
  }

  async get(req: IssueIndexRequest): Promise<IssueDto> {
    const row = await this.load(req);
    return toIssueDto(row, await this.views.context(req, issueUserIds(row)));
  }

  /** `PATCH …/issues/{index}`: title, body and state, by the author or a writer (pull requests too). */
  async edit(req: EditIssueRequest): Promise<IssueDto> {
    const actor = requireActor(req.actor);
    let row = await this.load(req);
    if (!canModify(req, row.posterId)) throw DomainError.forbidden('user should have permission to edit the issue');
    if (await this.extras.edit(req, actor, row, { milestone: req.body?.milestone })) row = await this.load(req);
    if (row.isPull) {
      const updated = await this.pulls.applyEdit(req, actor, row, req.body ?? {}, await this.assignees.resolve(req, req.body));
      return toIssueDto(updated, await this.views.context(req, issueUserIds(updated)));
    }
    const assigneeIds = await this.assignees.resolve(req, req.body);
    const updated = await this.applyEdit(req, actor, row, { ...req.body, assigneeIds });
    return toIssueDto(updated, await this.views.context(req, issueUserIds(updated)));
  }

  /** Gitea's `Closes #n`: each open issue named gets a `pull_ref` entry and is closed by the merger. */
  async closeReferencedBy(
    scope: ViewScope & { repo: { id: number; ownerId: number } }, actor: ActorDto, pull: { index: number }, indexes: number[],
  ): Promise<number[]> {
    const closed: number[] = [];
    for (const index of indexes) {
      const row = await this.issues.findByIndex(scope.repo.id, index);
      if (!row || row.isPull || row.state !== 'open') continue;
      await inTx(this.prisma, (tx) =>
        this.issues.addComment(tx, { issueId: row.id, repoId: row.repoId, type: 'pull_ref', posterId: actor.id, body: `#${pull.index}`, now: new Date() }));
      await this.applyEdit(scope, actor, row, { state: 'closed' });
      closed.push(index);
    }
    return closed;
  }

  private async applyEdit(
    scope: ViewScope & { repo: { ownerId: number } },
    actor: ActorDto,
    row: IssueRow,
    body: EditIssueBody & TitleBodyStateEdit,
  ): Promise<IssueRow> {
    const users = await this.views.users([actor.id, ...issueUserIds(row), scope.repo.ownerId, ...(body.assigneeIds ?? [])]);
    const repo = await this.views.repository(scope.repo.id, scope.access, users);
    const sender = await this.views.sender(actor, users);
    const ctx = { rootUrl: this.views.rootUrl, repo: scope.repo, users };
    const now = new Date();
    const result = await inTx(this.prisma, (tx) =>
      applyIssueEdit(tx, this.issues, row.id, actor.id, body, now, {
        reload: async (t, id) => (await this.issues.findById(scope.repo.id, id, t))!,
        edited: (t, updated, changes) =>
          this.outbox.record(t, IssueEvents.edited, {
            action: 'edited',
            number: updated.index,
            issue: toIssueDto(updated, ctx),
            isPull: false,
            changes,
            repository: repo.event,
            sender,
          }),
        assigneeChanged: (t, updated, action, userId) =>
          this.outbox.record(t, IssueEvents[action], {
            action,
            number: updated.index,
            issue: toIssueDto(updated, ctx),
            isPull: false,
            assignee: users.get(userId),
            repository: repo.event,
            sender,
          }),
        stateChanged: (t, updated, action) =>
          this.outbox.record(t, IssueEvents[action], {
            action,
            number: updated.index,
            issue: toIssueDto(updated, ctx),
            isPull: false,
            repository: repo.event,
            sender,
          }),
      }),
    );
    this.outbox.kick();
    return result;
  }

  /** Repeats change nothing; the timeline entry is credited to the caller (Gitea credits the repository owner). */
  async setLock(req: LockIssueRequest | IssueIndexRequest, lock: boolean): Promise<void> {
    const actor = requireActor(req.actor);
    let reason: string | null = null;
    if (lock) {
      const raw = (req as LockIssueRequest).body;
      const given = raw && typeof raw === 'object' ? (raw as { lock_reason?: unknown }).lock_reason : undefined;
      const check = checkLockReason(given, this.settings.lockReasons);
      if (!check.ok) throw DomainError.unprocessable(check.message, check.accepted);
      reason = check.reason;
    }
    const row = await this.load(req);
    const users = await this.views.users([actor.id, ...issueUserIds(row), req.repo.ownerId]);
    const repo = await this.views.repository(req.repo.id, req.access, users);
    const sender = await this.views.sender(actor, users);
    const ctx = { rootUrl: this.views.rootUrl, repo: req.repo, users };
    const now = new Date();
    const changed = await inTx(this.prisma, async (tx) => {
      if (!(await this.issues.setLocked(tx, row.id, lock, reason, now))) return false;
      await this.issues.addComment(tx, {
        issueId: row.id,
        repoId: row.repoId,
        type: lock ? 'lock' : 'unlock',
        posterId: actor.id,
        body: lock ? (reason ?? '') : '',
        now,
      });
      const updated = (await this.issues.findById(req.repo.id, row.id, tx))!;
      await this.outbox.record(tx, lock ? IssueEvents.locked : IssueEvents.unlocked, {
        action: lock ? 'locked' : 'unlocked',
        number: updated.index,
        issue: toIssueDto(updated, ctx),
        isPull: updated.isPull,
        repository: repo.event,
        sender,
      });
      return true;
    });
    if (changed) this.outbox.kick();
  }

  assignable(req: RepoScopedRequest): Promise<UserDto[]> {
    return this.assignees.assignable(req.repo);
  }

  /** The timeline: comments and events, oldest first. */
  async timeline(req: IssueTimelineRequest): Promise<Paginated<TimelineCommentDto>> {
    const row = await this.load(req);
    const all = await this.issues.listComments(row.id);
    const paged = req.query?.page !== undefined || req.query?.limit !== undefined;
    const { skip, take } = toPaging(req.query);
    const comments = paged ? all.slice(skip, skip + take) : all;
    const labelIds = comments.flatMap((c) => (c.labelId === null ? [] : [c.labelId]));
    const milestoneIds = comments.flatMap((c) => [c.milestoneId, c.oldMilestoneId].filter((id): id is number => id !== null));
    const [ctx, found] = await Promise.all([
      this.views.context(req, comments.flatMap(timelineUserIds)),
      this.issues.timelineRefs([...new Set(labelIds)], [...new Set(milestoneIds)]),
    ]);
    const refs: TimelineRefs = {
      labels: new Map(found.labels.map((l) => [l.id, toLabelDto(l, { rootUrl: this.views.rootUrl, repo: req.repo })])),
      milestones: new Map(found.milestones.map((m) => [m.id, toMilestoneDto(m)])),
    };
    return { items: comments.map((c) => toTimelineDto(c, row, ctx, refs)), total: all.length };
  }
}

function splitList(value: string): string[] {
  return value.split(',').map((v) => v.trim()).filter(Boolean);
}
