import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { RepositoriesHandler } from './repositories.handler.js';
import { RepositoriesRepository } from './repositories.repository.js';
import { RepositoriesService } from './repositories.service.js';
import { TopicsHandler } from '../topics/topics.handler.js';
import { TopicsService } from '../topics/topics.service.js';

/** Repository creation, reading, editing, deletion, listing and search; topics. */
@Module({
  imports: [AccessModule],
  controllers: [RepositoriesHandler, TopicsHandler],
  providers: [RepositoriesRepository, RepositoriesService, TopicsService],
  exports: [RepositoriesRepository],
})
export class RepositoriesModule {}
