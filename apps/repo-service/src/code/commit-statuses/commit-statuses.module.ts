import { Module } from '@nestjs/common';
import { GitReadModule } from '../../git-core/git/git-read.module.js';
import { RepositoriesModule } from '../../git-core/repositories/repositories.module.js';
import { CommitStatusStoreModule } from './commit-status-store.module.js';
import { CommitStatusesHandler } from './commit-statuses.handler.js';
import { CommitStatusesService } from './commit-statuses.service.js';

@Module({
  imports: [CommitStatusStoreModule, GitReadModule, RepositoriesModule],
  controllers: [CommitStatusesHandler],
  providers: [CommitStatusesService],
})
export class CommitStatusesModule {}
