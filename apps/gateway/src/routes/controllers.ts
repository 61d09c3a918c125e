import type { Type } from '@nestjs/common';
import { MiscController } from './misc/misc.controller.js';
import { RepoSigningKeyController, SigningKeyController } from './misc/signing-key.controller.js';
import { TemplatesController } from './misc/templates.controller.js';
import { UsersController } from './users/users.controller.js';
import { OwnKeysController } from './users/keys.controller.js';
import { EmailsController } from './users/emails.controller.js';
import { GpgKeysController } from './users/gpg-keys.controller.js';
import { TwoFactorController } from './users/two-factor.controller.js';
import { AdminUsersController } from './admin/admin-users.controller.js';
import { OrgsController } from './orgs/orgs.controller.js';
import { ReposController } from './repos/repos.controller.js';
import { CollaboratorsController } from './repos/collaborators.controller.js';
import { BranchProtectionsController } from './repos/branch-protections.controller.js';
import { CommitStatusesController } from './repos/commit-statuses.controller.js';
import { TopicsController } from './repos/topics.controller.js';
import { DeployKeysController } from './repos/deploy-keys.controller.js';
import { OwnFollowsController, RepoFollowsController, UserFollowsController } from './repos/follows.controller.js';
import { IssuesController } from './issues/issues.controller.js';
import { AssigneesController } from './issues/assignees.controller.js';
import { PullsController } from './pulls/pulls.controller.js';
import { ReviewsController } from './pulls/reviews.controller.js';
import { IssueLabelsController, RepoLabelsController } from './labels/labels.controller.js';
import { MilestonesController } from './labels/milestones.controller.js';
import { OrgLabelsController } from './labels/org-labels.controller.js';
import { RepoContentController } from './repo-content/repo-content.controller.js';
import { GitDataController } from './repo-content/git-data.controller.js';
import { ReleasesController } from './repos/releases.controller.js';
import { AdminHooksController } from './hooks/admin-hooks.controller.js';
import { OrgHooksController } from './hooks/org-hooks.controller.js';
import { RepoHooksController } from './hooks/repo-hooks.controller.js';
import { UserHooksController } from './hooks/user-hooks.controller.js';
import { OrgActionsController } from './actions/org-actions.controller.js';
import { RepoActionsController } from './actions/repo-actions.controller.js';
import { UserActionsController } from './actions/user-actions.controller.js';
import { AdminRunnersController } from './actions/admin-runners.controller.js';
import { OrgRunnersController } from './actions/org-runners.controller.js';
import { RepoRunnersController } from './actions/repo-runners.controller.js';
import { UserRunnersController } from './actions/user-runners.controller.js';
import { PackagesController } from './packages/packages.controller.js';
import { NotificationsController } from './notifications/notifications.controller.js';

export const API_CONTROLLERS: Type<unknown>[] = [
  MiscController,
  SigningKeyController,
  TemplatesController,
  UsersController,
  OwnKeysController,
  EmailsController,
  GpgKeysController,
  TwoFactorController,
  AdminUsersController,
  OrgsController,
  OrgLabelsController,
  ReposController,
  CollaboratorsController,
  BranchProtectionsController,
  CommitStatusesController,
  TopicsController,
  DeployKeysController,
  OwnFollowsController,
  UserFollowsController,
  RepoFollowsController,
  IssuesController,
  AssigneesController,
  IssueLabelsController,
  RepoLabelsController,
  MilestonesController,
  PullsController,
  ReviewsController,
  RepoContentController,
  GitDataController,
  ReleasesController,
  RepoSigningKeyController,
  AdminHooksController,
  OrgHooksController,
  UserHooksController,
  RepoHooksController,
  UserActionsController,
  OrgActionsController,
  RepoActionsController,
  AdminRunnersController,
  UserRunnersController,
  OrgRunnersController,
  RepoRunnersController,
  PackagesController,
  NotificationsController,
];
