import { Module } from '@nestjs/common';
import { AccessModule } from '../foundation/access/access.module.js';
import { CollaboratorsModule } from '../git-core/collaborators/collaborators.module.js';
import { Assignees } from './issue-core/assignees.js';
import { BranchProtectionModule } from '../code/branch-protection/branch-protection.module.js';
import { GitMaintenanceModule } from '../git-core/git/git-maintenance.module.js';
import { MergeHandler } from './pull-merge/merge.handler.js';
import { MergeService } from './pull-merge/merge.service.js';
import { MergeCheckQueue } from './pulls/merge-check.queue.js';
import { MergeabilityService } from './pulls/mergeability.service.js';
import { PULL_SETTINGS, loadPullSettings } from './pulls/pull-settings.js';
import { PullHeads } from './pulls/pull-heads.js';
import { PullRenderer } from './issue-core/pull-renderer.js';
import { PullsHandler } from './pulls/pulls.handler.js';
import { PullsRepository } from './pulls/pulls.repository.js';
import { PullsService } from './pulls/pulls.service.js';
import { PendingChecks } from './ref-updates/pending-checks.js';
import { PushRecorderRepository } from './ref-updates/push-recorder.repository.js';
import { PushRecorder } from './ref-updates/push-recorder.service.js';
import { RefUpdates } from './ref-updates/ref-updates.service.js';
import { RepositoriesModule } from '../git-core/repositories/repositories.module.js';
import { SignaturesModule } from '../git-core/signatures/signatures.module.js';
import { CommentsService } from './issues/comments.service.js';
import { ISSUE_SETTINGS, loadIssueSettings } from './issues/issue-settings.js';
import { IssuesHandler } from './issues/issues.handler.js';
import { IssuesRepository } from './issue-core/issues.repository.js';
import { IssuesService } from './issues/issues.service.js';
import { Approvals } from './reviews/approvals.js';
import { ReviewsHandler } from './reviews/reviews.handler.js';
import { ReviewsRepository } from './issue-core/reviews.repository.js';
import { ReviewsService } from './reviews/reviews.service.js';
import { IssueChangeEvents } from './issue-core/issue-change-events.js';
import { LabelsHandler, OrgLabelsHandler } from './labels/labels.handler.js';
import { OrgLabelsService } from './labels/org-labels.service.js';
import { LabelsRepository } from './labels/labels.repository.js';
import { LabelsService } from './labels/labels.service.js';
import { NewIssueExtras } from './labels/new-issue-extras.js';
import { MilestonesHandler } from './milestones/milestones.handler.js';
import { MilestonesRepository } from './milestones/milestones.repository.js';
import { MilestonesService } from './milestones/milestones.service.js';

/** Issues, comments, labels, milestones, pull requests, reviews, merging, and what moved branches do to them. */
@Module({
  imports: [AccessModule, RepositoriesModule, GitMaintenanceModule, SignaturesModule, CollaboratorsModule, BranchProtectionModule],
  controllers: [IssuesHandler, PullsHandler, MergeHandler, ReviewsHandler, LabelsHandler, OrgLabelsHandler, MilestonesHandler],
  providers: [
    { provide: ISSUE_SETTINGS, useFactory: () => loadIssueSettings() },
    { provide: PULL_SETTINGS, useFactory: () => loadPullSettings() },
    IssuesRepository,
    PullsRepository,
    PullRenderer,
    PullHeads,
    MergeCheckQueue,
    MergeabilityService,
    RefUpdates,
    PendingChecks,
    PushRecorderRepository,
    PushRecorder,
    PullsService,
    IssuesService,
    CommentsService,
    MergeService,
    ReviewsRepository,
    ReviewsService,
    Approvals,
    Assignees,
    IssueChangeEvents,
    LabelsRepository,
    LabelsService,
    OrgLabelsService,
    MilestonesRepository,
    MilestonesService,
    NewIssueExtras,
  ],
  exports: [MergeabilityService, PullsService, PullsRepository, Approvals, IssuesService, RefUpdates, PushRecorder],
})
export class IssueTrackerModule {}

/** For `bootstrapService`'s `validateSettings`: a bad value refuses start naming the setting, not a stack trace. */
export function validateIssueTrackerSettings(env: NodeJS.ProcessEnv = process.env): void {
  loadIssueSettings(env);
  loadPullSettings(env);
}
