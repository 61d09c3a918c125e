import { Module } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { TopicsHandler } from './topics.handler.js';
import { TopicsService } from './topics.service.js';

@Module({ imports: [RepositoriesModule], controllers: [TopicsHandler], providers: [TopicsService] })
export class TopicsModule {}
