import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  ListNotificationsRequest, NotificationCountRequest, NotificationThreadRequest, ReadNotificationsRequest, RepoSubjects,
  type NotificationCountDto, type NotificationThreadDto, type Paginated,
} from '@cairn/contracts';
import { NotificationsService } from './notifications.service.js';

@Controller()
export class NotificationsHandler {
  constructor(private readonly notifications: NotificationsService) {}

  @RpcHandler(RepoSubjects.notificationList)
  list(@Payload() req: ListNotificationsRequest): Promise<Paginated<NotificationThreadDto>> {
    return this.notifications.list(req);
  }

  @RpcHandler(RepoSubjects.notificationRead)
  read(@Payload() req: ReadNotificationsRequest): Promise<NotificationThreadDto[]> {
    return this.notifications.read(req);
  }

  @RpcHandler(RepoSubjects.notificationCount)
  count(@Payload() req: NotificationCountRequest): Promise<NotificationCountDto> {
    return this.notifications.count(req.actor);
  }

  @RpcHandler(RepoSubjects.notificationThreadGet)
  thread(@Payload() req: NotificationThreadRequest): Promise<NotificationThreadDto> {
    return this.notifications.thread(req);
  }

  @RpcHandler(RepoSubjects.notificationThreadRead)
  readThread(@Payload() req: NotificationThreadRequest): Promise<NotificationThreadDto> {
    return this.notifications.readThread(req);
  }
}
