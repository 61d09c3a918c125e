import { Module } from '@nestjs/common';
import { GitReadModule } from '../git/git-read.module.js';
import { IssueTrackerModule } from '../issue-tracker.module.js';
import { GitDataHandler } from './git-data.handler.js';
import { GitDataService } from './git-data.service.js';
import { TagsService } from './tags.service.js';

/** Tags (written like pushes, through `ref-updates/`) and Gitea's git data routes. */
@Module({
  imports: [GitReadModule, IssueTrackerModule],
  controllers: [GitDataHandler],
  providers: [TagsService, GitDataService],
})
export class GitDataModule {}
