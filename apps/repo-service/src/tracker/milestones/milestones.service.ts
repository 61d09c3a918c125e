import { Injectable } from '@nestjs/common';
import {
  DomainError, toPaging,
  type ActorDto, type CreateMilestoneRequest, type EditMilestoneRequest, type ListMilestonesRequest, type MilestoneDto,
  type MilestoneIdRequest, type Paginated,
} from '@cairn/contracts';
import type { Milestone } from '../../generated/prisma/client.js';
import { PrismaService } from '../../foundation/prisma/prisma.service.js';
import { IssueChangeEvents } from '../issue-core/issue-change-events.js';
import { IssuesRepository } from '../issue-core/issues.repository.js';
import { toMilestoneDto } from '../issue-core/label.mapper.js';
import type { ViewScope } from '../../git-core/repositories/repo-views.js';
import { inTx } from '../../foundation/prisma/tx.js';
import { MilestonesRepository } from './milestones.repository.js';

@Injectable()
export class MilestonesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly milestones: MilestonesRepository,
    private readonly issues: IssuesRepository,
    private readonly events: IssueChangeEvents,
  ) {}

  async list(req: ListMilestonesRequest): Promise<Paginated<MilestoneDto>> {
    const q = req.query ?? {};
    const page = await this.milestones.list(req.repo.id, { state: q.state ?? 'open', name: q.name?.trim() || undefined }, toPaging(q));
    return { items: page.items.map(toMilestoneDto), total: page.total };
  }

  async get(req: MilestoneIdRequest): Promise<MilestoneDto> {
    return toMilestoneDto(await this.load(req.repo.id, req.id));
  }

  async create(req: CreateMilestoneRequest): Promise<MilestoneDto> {
    const now = new Date();
    const closed = req.body.state === 'closed';
    const row = await this.milestones.create(req.repo.id, {
      name: req.body.title.trim(),
      description: req.body.description ?? '',
      dueOn: req.body.due_on ? new Date(req.body.due_on) : null,
      isClosed: closed,
      closedAt: closed ? now : null,
    }, now);
    return toMilestoneDto(row);
  }

  async edit(req: EditMilestoneRequest): Promise<MilestoneDto> {
    const current = await this.load(req.repo.id, req.id);
    const body = req.body ?? {};
    const now = new Date();
    const closing = body.state !== undefined && (body.state === 'closed') !== current.isClosed;
    const row = await this.milestones.update(current.id, {
      ...(body.title !== undefined ? { name: body.title.trim() } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.due_on !== undefined ? { dueOn: new Date(body.due_on) } : {}),
      ...(closing ? { isClosed: body.state === 'closed', closedAt: body.state === 'closed' ? now : null } : {}),
    }, now);
    return toMilestoneDto(row);
  }

  async delete(req: MilestoneIdRequest): Promise<void> {
    const row = await this.load(req.repo.id, req.id);
    await this.milestones.delete(row.id);
  }

  /** The id when it is the repository's (422 otherwise); null for none or 0. */
  async resolveForNewIssue(repoId: number, id: number | undefined): Promise<number | null> {
    if (!id) return null;
    if (!(await this.milestones.findById(repoId, id))) throw DomainError.unprocessable(`milestone ${id} does not exist in this repository`);
    return id;
  }

  /** Moves an issue into milestone `id` (0: out of any), with the `milestoned`/`demilestoned` event. */
  async assign(scope: ViewScope, actor: ActorDto, issueId: number, id: number): Promise<void> {
    const target = await this.resolveForNewIssue(scope.repo.id, id);
    const changed = await inTx(this.prisma, async (tx) => {
      await this.issues.lockRow(tx, issueId);
      const now = new Date();
      const { before } = await this.issues.setMilestone(tx, issueId, target, now);
      if (before === target) return false;
      await this.issues.addComment(tx, {
        issueId, repoId: scope.repo.id, type: 'milestone', posterId: actor.id, body: '', now, milestoneId: target, oldMilestoneId: before,
      });
      await this.events.record(tx, scope, actor, issueId, target === null ? 'demilestoned' : 'milestoned');
      return true;
    });
    if (changed) this.events.kick();
  }

  /** The issue-list filter: milestones by id or title, as `milestones=1,v1.0` (unknown ones match nothing). */
  async idsForFilter(repoId: number, refs: string[]): Promise<number[]> {
    const ids = refs.filter((r) => /^\d+$/.test(r)).map(Number).filter((n) => n <= 2_147_483_647);
    const rows = await this.milestones.findByIdsOrNames(repoId, ids, refs);
    return rows.map((m) => m.id);
  }

  /** By id, or else by title (Gitea's `getMilestoneByIDOrName`); 404 when neither. */
  private async load(repoId: number, ref: string): Promise<Milestone> {
    const id = /^\d+$/.test(ref) ? Number(ref) : 0;
    const byId = id > 0 && id <= 2_147_483_647 ? await this.milestones.findById(repoId, id) : null;
    const row = byId ?? (await this.milestones.findByName(repoId, ref));
    if (!row) throw DomainError.notFound('milestone not found');
    return row;
  }
}
