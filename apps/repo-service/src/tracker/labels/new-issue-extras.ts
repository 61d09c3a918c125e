import { Injectable } from '@nestjs/common';
import { mayTriage, type ActorDto } from '@cairn/contracts';
import type { Tx } from '../../foundation/prisma/prisma.service.js';
import { MilestonesService } from '../milestones/milestones.service.js';
import { IssuesRepository, type IssueRow } from '../issue-core/issues.repository.js';
import type { ViewScope } from '../../git-core/repositories/repo-views.js';
import { LabelsRepository } from './labels.repository.js';
import { LabelsService } from './labels.service.js';

/** Labels and milestone of a new issue or pull request, checked before its transaction. */
export interface IssueExtras {
  labelIds: number[];
  milestoneId: number | null;
}

/** As Gitea, only a poster with write access sets them (others' ignored); unknown ids 422 before any write. */
@Injectable()
export class NewIssueExtras {
  constructor(
    private readonly labels: LabelsService,
    private readonly labelRows: LabelsRepository,
    private readonly milestones: MilestonesService,
    private readonly issues: IssuesRepository,
  ) {}

  async check(scope: ViewScope, body: { labels?: number[]; milestone?: number }): Promise<IssueExtras> {
    if (!mayTriage(scope.access)) return { labelIds: [], milestoneId: null };
    return {
      labelIds: await this.labels.resolveForNewIssue(scope, body.labels),
      milestoneId: await this.milestones.resolveForNewIssue(scope.repo.id, body.milestone),
    };
  }

  /** Applied for writers only, others' ignored as in Gitea; true when the caller should reload the row. */
  async edit(scope: ViewScope, actor: ActorDto, issue: IssueRow, body: { labels?: number[]; milestone?: number }): Promise<boolean> {
    if (!mayTriage(scope.access)) return false;
    if (body.milestone !== undefined) await this.milestones.assign(scope, actor, issue.id, body.milestone);
    if (body.labels !== undefined) await this.labels.replaceIds(scope, actor, issue, body.labels);
    return body.milestone !== undefined || body.labels !== undefined;
  }

  /** Writes them inside the creating transaction (the `opened` event then carries them). */
  async apply(tx: Tx, issueId: number, extras: IssueExtras, now: Date): Promise<void> {
    if (extras.labelIds.length) await this.labelRows.setIssueLabels(tx, issueId, extras.labelIds);
    if (extras.milestoneId !== null) await this.issues.setMilestone(tx, issueId, extras.milestoneId, now);
  }
}
