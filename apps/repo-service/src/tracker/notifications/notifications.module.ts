import { Module } from '@nestjs/common';
import { AccessModule } from '../../foundation/access/access.module.js';
import { RepositoriesModule } from '../../git-core/repositories/repositories.module.js';
import { RepoViews } from '../../git-core/repositories/repo-views.js';
import { NotificationsConsumer } from './notifications.consumer.js';
import { NotificationsHandler } from './notifications.handler.js';
import { NotificationsRepository } from './notifications.repository.js';
import { NotificationsService } from './notifications.service.js';

@Module({
  imports: [AccessModule, RepositoriesModule],
  controllers: [NotificationsHandler],
  providers: [NotificationsRepository, NotificationsService, NotificationsConsumer, RepoViews],
})
export class NotificationsModule {}
