import { Module } from '@nestjs/common';
import { BranchProtectionModule } from '../branch-protection/branch-protection.module.js';
import { GitReadModule } from '../../git-core/git/git-read.module.js';
import { ContentsModule } from '../contents/contents.module.js';
import { RepositoriesModule } from '../../git-core/repositories/repositories.module.js';
import { SignaturesModule } from '../../git-core/signatures/signatures.module.js';
import { FileChangesHandler } from './file-changes.handler.js';
import { FileChangesService } from './file-changes.service.js';

/** Gitea's contents write API: commits made with git plumbing, recorded like pushes (`ref-updates/`). */
@Module({
  imports: [GitReadModule, ContentsModule, SignaturesModule, RepositoriesModule, BranchProtectionModule],
  controllers: [FileChangesHandler],
  providers: [FileChangesService],
})
export class FileChangesModule {}
