import { Module } from '@nestjs/common';
import { BranchProtectionModule } from '../branch-protection/branch-protection.module.js';
import { CommitsModule } from '../commits/commits.module.js';
import { GitReadModule } from '../../git-core/git/git-read.module.js';
import { SignaturesModule } from '../../git-core/signatures/signatures.module.js';
import { BranchesHandler } from './branches.handler.js';
import { BranchesService } from './branches.service.js';

@Module({
  imports: [GitReadModule, CommitsModule, SignaturesModule, BranchProtectionModule],
  controllers: [BranchesHandler],
  providers: [BranchesService],
  exports: [BranchesService],
})
export class BranchesModule {}
