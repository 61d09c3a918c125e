import { Module } from '@nestjs/common';
import { GitReadModule } from '../git/git-read.module.js';
import { IssueTrackerModule } from '../issue-tracker.module.js';
import { CommitStatusStoreModule } from './commit-status-store.module.js';
import { CommitStatusesHandler } from './commit-statuses.handler.js';
import { CommitStatusesService } from './commit-statuses.service.js';

/** The commit status API (`/statuses/{sha}`, `/commits/{ref}/status(es)`) and its `status` event. */
@Module({
  imports: [CommitStatusStoreModule, GitReadModule, IssueTrackerModule],
  controllers: [CommitStatusesHandler],
  providers: [CommitStatusesService],
})
export class CommitStatusesModule {}
