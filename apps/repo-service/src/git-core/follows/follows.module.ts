import { Module } from '@nestjs/common';
import { AccessModule } from '../../foundation/access/access.module.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { FollowsHandler } from './follows.handler.js';
import { FollowsRepository } from './follows.repository.js';
import { FollowsService } from './follows.service.js';

@Module({
  imports: [AccessModule, RepositoriesModule],
  controllers: [FollowsHandler],
  providers: [FollowsRepository, FollowsService],
})
export class FollowsModule {}
