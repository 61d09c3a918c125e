import { Module } from '@nestjs/common';
import { GitReadModule } from '../git/git-read.module.js';
import { IssueTrackerModule } from '../issue-tracker.module.js';
import { GitDataHandler } from './git-data.handler.js';
import { GitDataService } from './git-data.service.js';
import { TagsService } from './tags.service.js';
import { ReleasesHandler } from '../releases/releases.handler.js';
import { ReleasesRepository } from '../releases/releases.repository.js';
import { ReleasesService } from '../releases/releases.service.js';

/** Tags (written like pushes, through `ref-updates/`), releases (whose tags they create) and Gitea's git data routes. */
@Module({
  imports: [GitReadModule, IssueTrackerModule],
  controllers: [GitDataHandler, ReleasesHandler],
  providers: [TagsService, GitDataService, ReleasesRepository, ReleasesService],
})
export class GitDataModule {}
