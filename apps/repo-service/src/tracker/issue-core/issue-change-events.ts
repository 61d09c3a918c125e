import { Injectable } from '@nestjs/common';
import {
  IssueEvents, type ActorDto, type IssueLabelAction, type IssueMilestoneAction,
} from '@cairn/contracts';
import { EventOutbox } from '@cairn/platform';
import { PullRenderer } from './pull-renderer.js';
import type { Tx } from '../../foundation/prisma/prisma.service.js';
import { toIssueDto } from './issue.mapper.js';
import { IssuesRepository } from './issues.repository.js';
import { isPullRow } from './pull.mapper.js';
import { RepoViews, type ViewScope } from '../../git-core/repositories/repo-views.js';

const SUBJECT: Record<IssueLabelAction | IssueMilestoneAction, (typeof IssueEvents)[keyof typeof IssueEvents]> = {
  label_updated: IssueEvents.labelUpdated,
  label_cleared: IssueEvents.labelCleared,
  milestoned: IssueEvents.milestoned,
  demilestoned: IssueEvents.demilestoned,
};

/** Records a label or milestone change's event in its transaction, with the issue JSON as it is after the change. */
@Injectable()
export class IssueChangeEvents {
  constructor(
    private readonly issues: IssuesRepository,
    private readonly views: RepoViews,
    private readonly pulls: PullRenderer,
    private readonly outbox: EventOutbox,
  ) {}

  async record(tx: Tx, scope: ViewScope, actor: ActorDto, issueId: number, action: IssueLabelAction | IssueMilestoneAction): Promise<void> {
    const row = (await this.issues.findById(scope.repo.id, issueId, tx))!;
    if (isPullRow(row)) {
      const r = await this.pulls.prepare(scope, [row], actor);
      await this.outbox.record(tx, SUBJECT[action], {
        action, number: row.index, issue: r.issue(row), isPull: true, pullRequest: r.pull(row), repository: r.repository, sender: r.sender,
      });
      return;
    }
    const users = await this.views.users([actor.id, row.posterId, scope.repo.ownerId]);
    const repo = await this.views.repository(scope.repo.id, scope.access, users);
    const issue = toIssueDto(row, { rootUrl: this.views.rootUrl, repo: scope.repo, users });
    await this.outbox.record(tx, SUBJECT[action], {
      action, number: row.index, issue, isPull: false, repository: repo.event, sender: await this.views.sender(actor, users),
    });
  }

  kick(): void {
    this.outbox.kick();
  }
}
