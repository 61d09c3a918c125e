import { Module } from '@nestjs/common';
import { PlatformModule } from '@cairn/platform';
import { AccessModule } from './shared/access/access.module.js';
import { BranchProtectionModule } from './code/branch-protection/branch-protection.module.js';
import { CollaboratorsModule } from './git-core/collaborators/collaborators.module.js';
import { CommitStatusesModule } from './code/commit-statuses/commit-statuses.module.js';
import { DeletedAccountsModule } from './tracker/deleted-accounts/deleted-accounts.module.js';
import { DeployKeysModule } from './git-core/deploy-keys/deploy-keys.module.js';
import { FollowsModule } from './git-core/follows/follows.module.js';
import { IssueTrackerModule } from './tracker/issue-tracker.module.js';
import { RepoConfigModule } from './shared/config/repo-settings.js';
import { PrismaModule } from './shared/prisma/prisma.module.js';
import { NotificationsModule } from './tracker/notifications/notifications.module.js';
import { RepositoriesModule } from './git-core/repositories/repositories.module.js';
import { StorageModule } from './git-core/storage/storage.module.js';
import { TransportModule } from './git-core/transport/transport.module.js';
import { GitReadModule } from './git-core/git/git-read.module.js';
import { FileChangesModule } from './code/file-changes/file-changes.module.js';
import { BranchWritesModule } from './code/branches/branch-writes.module.js';
import { SigningModule } from './git-core/signing/signing.module.js';
import { SignaturesModule } from './git-core/signatures/signatures.module.js';
import { ReleasesModule } from './code/releases/releases.module.js';
import { TemplatesModule } from './git-core/templates/templates.module.js';
import { TopicsModule } from './git-core/topics/topics.module.js';
import { RefNamesModule } from './git-core/ref-names/ref-names.module.js';
import { CommitsModule } from './code/commits/commits.module.js';
import { ContentsModule } from './code/contents/contents.module.js';
import { BranchesModule } from './code/branches/branches.module.js';
import { CommitDiffModule } from './code/commit-diff/commit-diff.module.js';
import { BlameModule } from './code/blame/blame.module.js';
import { LayerPortsModule } from './layer-ports.module.js';

/** repo-service: repositories, git storage and transport, issues, pull requests, packages. */
@Module({
  imports: [
    PlatformModule.forService({ service: 'repo', schema: 'repo' }),
    RepoConfigModule,
    PrismaModule,
    StorageModule,
    SigningModule,
    SignaturesModule,
    TemplatesModule,
    AccessModule,
    RepositoriesModule,
    CollaboratorsModule,
    BranchProtectionModule,
    DeployKeysModule,
    FollowsModule,
    TransportModule,
    IssueTrackerModule,
    NotificationsModule,
    DeletedAccountsModule,
    GitReadModule,
    RefNamesModule,
    TopicsModule,
    CommitsModule,
    ContentsModule,
    BranchesModule,
    CommitDiffModule,
    BlameModule,
    FileChangesModule,
    CommitStatusesModule,
    ReleasesModule,
    BranchWritesModule,
    LayerPortsModule,
  ],
})
export class AppModule {}
