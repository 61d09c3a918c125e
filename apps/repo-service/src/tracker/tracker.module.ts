import { Module } from '@nestjs/common';
import { DeletedAccountsModule } from './deleted-accounts/deleted-accounts.module.js';
import { IssueTrackerModule } from './issue-tracker.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';

/** The tracker layer: issues, pull requests, notifications, deleted accounts' rows. */
@Module({ imports: [IssueTrackerModule, NotificationsModule, DeletedAccountsModule] })
export class TrackerModule {}
