import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { SignaturesModule } from '../signatures/signatures.module.js';
import { BranchProtectionHandler } from './branch-protection.handler.js';
import { BranchProtectionRepository } from './branch-protection.repository.js';
import { BranchProtectionService } from './branch-protection.service.js';
import { CommitStatusSource, MergeProtection, NoCommitStatuses } from './merge-protection.service.js';
import { PushProtection } from './push-protection.service.js';

/**
 * Branch protection: its rules (`repo.branch-protection.*`) and their enforcement, which the git transport (pushes),
 * the contents API and pull-request merges use.
 */
@Module({
  imports: [AccessModule, SignaturesModule],
  controllers: [BranchProtectionHandler],
  providers: [
    BranchProtectionRepository,
    BranchProtectionService,
    PushProtection,
    MergeProtection,
    { provide: CommitStatusSource, useClass: NoCommitStatuses },
  ],
  exports: [BranchProtectionService, PushProtection, MergeProtection],
})
export class BranchProtectionModule {}
