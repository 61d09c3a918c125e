import { Injectable } from '@nestjs/common';
import {
  DomainError, LabelSubjects, assertSubjectAccess, toPaging,
  type CreateLabelRequest, type EditLabelRequest, type IssueIndexRequest, type IssueLabelIdRequest,
  type IssueLabelsRequest, type LabelDto, type LabelIdRequest, type ListLabelsRequest, type Paginated,
} from '@cairn/contracts';
import type { Label } from '../../generated/prisma/client.js';
import { PrismaService, type Tx } from '../../foundation/prisma/prisma.service.js';
import { IssueChangeEvents } from '../issue-core/issue-change-events.js';
import { narrowToIssueUnit } from '../issue-core/issue-permissions.js';
import { requireActor } from '../../foundation/access/require-actor.js';
import { IssuesRepository, type IssueRow } from '../issue-core/issues.repository.js';
import { toLabelDto } from '../issue-core/label.mapper.js';
import { RepoViews, type ViewScope } from '../../git-core/repositories/repo-views.js';
import { inTx } from '../../foundation/prisma/tx.js';
import { labelChanges, newLabelData, parseLabelRefs, withExclusiveScopes } from './label-rules.js';
import { LabelsRepository, type LabelOwner } from './labels.repository.js';

/** Organization labels may be set on its repositories' issues; an exclusive `scope/name` label pushes out its scope. */
@Injectable()
export class LabelsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly labels: LabelsRepository,
    private readonly issues: IssuesRepository,
    private readonly views: RepoViews,
    private readonly events: IssueChangeEvents,
  ) {}

  private dto(scope: ViewScope, row: Label): LabelDto {
    return toLabelDto(row, { rootUrl: this.views.rootUrl, repo: scope.repo });
  }

  async list(req: ListLabelsRequest): Promise<Paginated<LabelDto>> {
    const page = await this.labels.list({ repoId: req.repo.id }, toPaging(req.query));
    return { items: page.items.map((l) => this.dto(req, l)), total: page.total };
  }

  async get(req: LabelIdRequest): Promise<LabelDto> {
    return this.dto(req, await this.load(req.repo.id, req.id));
  }

  async create(req: CreateLabelRequest): Promise<LabelDto> {
    const now = new Date();
    return this.dto(req, await this.labels.create({ repoId: req.repo.id }, newLabelData(req.body, now), now));
  }

  async edit(req: EditLabelRequest): Promise<LabelDto> {
    const current = await this.load(req.repo.id, req.id);
    const now = new Date();
    return this.dto(req, await this.labels.update(current.id, labelChanges(req.body ?? {}, current, now), now));
  }

  async delete(req: LabelIdRequest): Promise<void> {
    if (!(await this.labels.delete({ repoId: req.repo.id }, req.id))) throw DomainError.notFound('label not found');
  }


  async issueLabels(req: IssueIndexRequest): Promise<LabelDto[]> {
    const issue = await this.loadIssue(req);
    return (await this.labels.ofIssue(issue.id)).map((l) => this.dto(req, l));
  }

  /** `POST …/issues/{index}/labels`: adds to the issue's labels; answers all of them. */
  async add(req: IssueLabelsRequest): Promise<LabelDto[]> {
    return this.change(req, (current, given) => withExclusiveScopes(current, given));
  }

  /** `PUT …/issues/{index}/labels`: the issue's labels become the ones given. */
  async replace(req: IssueLabelsRequest): Promise<LabelDto[]> {
    return this.change(req, (_current, given) => withExclusiveScopes([], given));
  }

  /** `DELETE …/issues/{index}/labels/{id}`: 422 for a label that does not exist (Gitea); a label not set is fine. */
  async remove(req: IssueLabelIdRequest): Promise<void> {
    const actor = requireActor(req.actor);
    const issue = await this.loadIssue(req);
    assertSubjectAccess(req, LabelSubjects.issueRemove);
    const found = await this.labels.usableByIds(await this.owner(req), [req.id]);
    if (!found.length) throw DomainError.unprocessable(`label ${req.id} does not exist`);
    await this.apply(req, actor, issue, (current) => current.filter((l) => l.id !== req.id), 'label_updated');
  }

  async clear(req: IssueIndexRequest): Promise<void> {
    const actor = requireActor(req.actor);
    const issue = await this.loadIssue(req);
    assertSubjectAccess(req, LabelSubjects.issueClear);
    await this.apply(req, actor, issue, () => [], 'label_cleared');
  }

  /** For creation flows (they write them in their own transaction): usable ids, else 422; exclusive scopes applied. */
  async resolveForNewIssue(scope: ViewScope, ids: number[] | undefined): Promise<number[]> {
    if (!ids?.length) return [];
    const found = await this.resolve(scope, { ids: [...new Set(ids)], names: [] });
    return withExclusiveScopes([], found).map((l) => l.id);
  }

  /** The labels of an issue become these ids (`EditPullRequestOption.labels`); write access checked by the caller. */
  async replaceIds(scope: ViewScope, actor: NonNullable<ViewScope['actor']>, issue: IssueRow, ids: number[]): Promise<void> {
    const given = await this.resolve(scope, { ids: [...new Set(ids)], names: [] });
    await this.apply(scope, actor, issue, () => withExclusiveScopes([], given), 'label_updated');
  }

  private async change(req: IssueLabelsRequest, next: (current: Label[], given: Label[]) => Label[]): Promise<LabelDto[]> {
    const actor = requireActor(req.actor);
    const issue = await this.loadIssue(req);
    // Add and replace need the same level; loadIssue narrowed `access` to the issue's own unit.
    assertSubjectAccess(req, LabelSubjects.issueReplace);
    const given = await this.resolve(req, parseLabelRefs(req.body?.labels ?? []));
    const labels = await this.apply(req, actor, issue, (current) => next(current, given), 'label_updated');
    return labels.map((l) => this.dto(req, l));
  }

  private async apply(
    scope: ViewScope,
    actor: NonNullable<ViewScope['actor']>,
    issue: IssueRow,
    next: (current: Label[]) => Label[],
    action: 'label_updated' | 'label_cleared',
  ): Promise<Label[]> {
    const now = new Date();
    const { labels, changed } = await inTx(this.prisma, async (tx: Tx) => {
      await this.issues.lockRow(tx, issue.id);
      const current = await this.labels.ofIssue(issue.id, tx);
      const wanted = next(current);
      const changed = await this.labels.setIssueLabels(tx, issue.id, wanted.map((l) => l.id));
      if (changed) {
        // One `label` timeline entry per label removed (body empty) or added (body `1`), as Gitea's.
        const had = new Set(current.map((l) => l.id));
        const has = new Set(wanted.map((l) => l.id));
        const entry = (labelId: number, added: boolean) => this.issues.addComment(tx, {
          issueId: issue.id, repoId: scope.repo.id, type: 'label', posterId: actor.id, body: added ? '1' : '', now, labelId,
        });
        for (const l of current) if (!has.has(l.id)) await entry(l.id, false);
        for (const l of wanted) if (!had.has(l.id)) await entry(l.id, true);
        await this.issues.touch(tx, issue.id, now);
        await this.events.record(tx, scope, actor, issue.id, action);
      }
      return { labels: await this.labels.ofIssue(issue.id, tx), changed };
    });
    if (changed) this.events.kick();
    return labels;
  }

  /** Labels by ids or names, each usable in the repository; 422 naming those that are not. */
  private async resolve(scope: ViewScope, refs: { ids: number[]; names: string[] }): Promise<Label[]> {
    const owner = await this.owner(scope);
    if (refs.ids.length) {
      const found = await this.labels.usableByIds(owner, refs.ids);
      const missing = refs.ids.filter((id) => !found.some((l) => l.id === id));
      if (missing.length) throw DomainError.unprocessable(`labels do not exist in this repository: ${missing.join(', ')}`);
      return refs.ids.map((id) => found.find((l) => l.id === id)!);
    }
    const found = await this.labels.usableByNames(owner, refs.names);
    const missing = refs.names.filter((n) => !found.some((l) => l.name === n));
    if (missing.length) throw DomainError.unprocessable(`labels do not exist in this repository: ${missing.join(', ')}`);
    return found;
  }

  private async owner(scope: ViewScope): Promise<LabelOwner> {
    const row = await this.views.row(scope.repo.id);
    return { repoId: row.id, orgId: row.ownerKind === 'organization' ? row.ownerId : null };
  }

  private async load(repoId: number, id: number): Promise<Label> {
    const row = await this.labels.find({ repoId }, id);
    if (!row) throw DomainError.notFound('label not found');
    return row;
  }

  private async loadIssue(req: IssueIndexRequest): Promise<IssueRow> {
    const row = await this.issues.findByIndex(req.repo.id, req.index);
    if (!row) throw DomainError.notFound('issue not found');
    narrowToIssueUnit(req, row, 'issue not found');
    return row;
  }
}
