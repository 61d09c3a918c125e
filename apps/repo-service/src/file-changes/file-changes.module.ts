import { Module } from '@nestjs/common';
import { BranchProtectionModule } from '../branch-protection/branch-protection.module.js';
import { GitReadModule } from '../git/git-read.module.js';
import { IssueTrackerModule } from '../issue-tracker.module.js';
import { SigningModule } from '../signing/signing.module.js';
import { FileChangesHandler } from './file-changes.handler.js';
import { FileChangesService } from './file-changes.service.js';

/** Gitea's contents write API: commits made with git plumbing, recorded like pushes (`ref-updates/`). */
@Module({
  imports: [GitReadModule, IssueTrackerModule, SigningModule, BranchProtectionModule],
  controllers: [FileChangesHandler],
  providers: [FileChangesService],
})
export class FileChangesModule {}
