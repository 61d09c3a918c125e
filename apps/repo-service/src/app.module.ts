import { Module } from '@nestjs/common';
import { PlatformModule } from '@cairn/platform';
import { AccessModule } from './access/access.module.js';
import { BranchProtectionModule } from './branch-protection/branch-protection.module.js';
import { CollaboratorsModule } from './collaborators/collaborators.module.js';
import { CommitStatusesModule } from './commit-statuses/commit-statuses.module.js';
import { DeletedAccountsModule } from './deleted-accounts/deleted-accounts.module.js';
import { DeployKeysModule } from './deploy-keys/deploy-keys.module.js';
import { FollowsModule } from './follows/follows.module.js';
import { IssueTrackerModule } from './issue-tracker.module.js';
import { RepoConfigModule } from './config/repo-settings.js';
import { PrismaModule } from './prisma/prisma.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { RepositoriesModule } from './repositories/repositories.module.js';
import { StorageModule } from './storage/storage.module.js';
import { TransportModule } from './transport/transport.module.js';
import { GitReadModule } from './git/git-read.module.js';
import { FileChangesModule } from './file-changes/file-changes.module.js';
import { BranchWritesModule } from './branches/branch-writes.module.js';
import { SigningModule } from './signing/signing.module.js';
import { SignaturesModule } from './signatures/signatures.module.js';
import { ReleasesModule } from './releases/releases.module.js';
import { TemplatesModule } from './templates/templates.module.js';
import { TopicsModule } from './topics/topics.module.js';
import { RefNamesModule } from './ref-names/ref-names.module.js';
import { CommitsModule } from './commits/commits.module.js';
import { ContentsModule } from './contents/contents.module.js';
import { BranchesModule } from './branches/branches.module.js';
import { CommitDiffModule } from './commit-diff/commit-diff.module.js';
import { BlameModule } from './blame/blame.module.js';
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
