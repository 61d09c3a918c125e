import { Module } from '@nestjs/common';
import { AccessModule } from '../../foundation/access/access.module.js';
import { SignaturesModule } from '../../git-core/signatures/signatures.module.js';
import { BranchProtectionHandler } from './branch-protection.handler.js';
import { BranchProtectionRepository } from './branch-protection.repository.js';
import { BranchProtectionService } from './branch-protection.service.js';
import { CommitStatusStoreModule } from '../commit-statuses/commit-status-store.module.js';
import { CommitStatusSource, MergeProtection } from './merge-protection.service.js';
import { PushProtection } from './push-protection.service.js';

@Module({
  imports: [AccessModule, SignaturesModule, CommitStatusStoreModule],
  controllers: [BranchProtectionHandler],
  providers: [
    BranchProtectionRepository,
    BranchProtectionService,
    PushProtection,
    MergeProtection,
    CommitStatusSource,
  ],
  exports: [BranchProtectionService, PushProtection, MergeProtection],
})
export class BranchProtectionModule {}
