import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { RepositoriesHandler } from './repositories.handler.js';
import { RepositoriesRepository } from './repositories.repository.js';
import { RepositoriesService } from './repositories.service.js';

/** Repository creation, reading, editing, deletion, listing and search. */
@Module({
  imports: [AccessModule],
  controllers: [RepositoriesHandler],
  providers: [RepositoriesRepository, RepositoriesService],
  exports: [RepositoriesRepository, RepositoriesService],
})
export class RepositoriesModule {}
