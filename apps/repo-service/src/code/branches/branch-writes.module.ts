import { Module } from '@nestjs/common';
import { BranchProtectionModule } from '../branch-protection/branch-protection.module.js';
import { GitReadModule } from '../../git-core/git/git-read.module.js';
import { BranchesModule } from './branches.module.js';
import { RepositoriesModule } from '../../git-core/repositories/repositories.module.js';
import { BranchWritesHandler } from './branch-writes.handler.js';
import { BranchWritesService } from './branch-writes.service.js';

@Module({
  imports: [GitReadModule, BranchesModule, BranchProtectionModule, RepositoriesModule],
  controllers: [BranchWritesHandler],
  providers: [BranchWritesService],
})
export class BranchWritesModule {}
