import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { RepositoriesHandler } from './repositories.handler.js';
import { RepositoriesRepository } from './repositories.repository.js';
import { RepositoriesService } from './repositories.service.js';
import { TeamReposHandler } from './team-repos.handler.js';
import { TeamReposService } from './team-repos.service.js';

/** Repository creation, reading, editing, deletion, listing and search; repositories given to teams. */
@Module({
  imports: [AccessModule],
  controllers: [RepositoriesHandler, TeamReposHandler],
  providers: [RepositoriesRepository, RepositoriesService, TeamReposService],
  exports: [RepositoriesRepository],
})
export class RepositoriesModule {}
