import { Module } from '@nestjs/common';
import { GitReadModule } from '../git/git-read.module.js';
import { IssueTrackerModule } from '../issue-tracker.module.js';
import { BranchWritesHandler } from './branch-writes.handler.js';
import { BranchWritesService } from './branch-writes.service.js';

/** Branch creation and deletion through the API, recorded like pushes (`ref-updates/`). */
@Module({
  imports: [GitReadModule, IssueTrackerModule],
  controllers: [BranchWritesHandler],
  providers: [BranchWritesService],
})
export class BranchWritesModule {}
