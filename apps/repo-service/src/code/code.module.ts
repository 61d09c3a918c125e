import { Module } from '@nestjs/common';
import { BlameModule } from './blame/blame.module.js';
import { BranchProtectionModule } from './branch-protection/branch-protection.module.js';
import { BranchWritesModule } from './branches/branch-writes.module.js';
import { BranchesModule } from './branches/branches.module.js';
import { CommitDiffModule } from './commit-diff/commit-diff.module.js';
import { CommitStatusesModule } from './commit-statuses/commit-statuses.module.js';
import { CommitsModule } from './commits/commits.module.js';
import { ContentsModule } from './contents/contents.module.js';
import { FileChangesModule } from './file-changes/file-changes.module.js';
import { ReleasesModule } from './releases/releases.module.js';

/** The code layer: contents, commits, branches, tags, releases, protection, statuses. */
@Module({
  imports: [
    CommitsModule,
    ContentsModule,
    BranchesModule,
    BranchWritesModule,
    BranchProtectionModule,
    CommitDiffModule,
    BlameModule,
    CommitStatusesModule,
    FileChangesModule,
    ReleasesModule,
  ],
})
export class CodeModule {}
