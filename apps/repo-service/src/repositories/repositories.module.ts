import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { RepositoriesHandler } from './repositories.handler.js';
import { RepositoriesRepository } from './repositories.repository.js';
import { RepositoriesService } from './repositories.service.js';
import { TeamReposHandler } from './team-repos.handler.js';
import { TeamReposService } from './team-repos.service.js';
import { TopicsHandler } from '../topics/topics.handler.js';
import { TopicsService } from '../topics/topics.service.js';

/** Repository creation, reading, editing, deletion, listing and search; topics; repositories given to teams. */
@Module({
  imports: [AccessModule, TemplatesModule],
  controllers: [RepositoriesHandler, TeamReposHandler, TopicsHandler],
  providers: [RepositoriesRepository, RepositoriesService, TeamReposService, TopicsService],
  exports: [RepositoriesRepository, RepositoriesService],
})
export class RepositoriesModule {}
