import { Module } from '@nestjs/common';
import { AccessModule } from '../../foundation/access/access.module.js';
import { TemplatesModule } from '../templates/templates.module.js';
import { RepositoriesHandler } from './repositories.handler.js';
import { RepositoriesRepository } from './repositories.repository.js';
import { RepositoriesService } from './repositories.service.js';
import { TeamReposHandler } from './team-repos.handler.js';
import { TeamReposService } from './team-repos.service.js';
import { RepoViews } from './repo-views.js';

/** Repositories: create, read, edit, delete, list, search, team grants, and the views other features use. */
@Module({
  imports: [AccessModule, TemplatesModule],
  controllers: [RepositoriesHandler, TeamReposHandler],
  providers: [RepositoriesRepository, RepositoriesService, TeamReposService, RepoViews],
  exports: [RepositoriesRepository, RepositoriesService, RepoViews],
})
export class RepositoriesModule {}
