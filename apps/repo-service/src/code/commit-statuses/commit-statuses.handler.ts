import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CommitStatusSubjects, CreateCommitStatusRequest, GetCombinedStatusRequest, ListCommitStatusesRequest,
  type CombinedStatusReply, type CommitStatusDto, type Paginated,
} from '@cairn/contracts';
import { CommitStatusesService } from './commit-statuses.service.js';

@Controller()
export class CommitStatusesHandler {
  constructor(private readonly statuses: CommitStatusesService) {}

  @RpcHandler(CommitStatusSubjects.create)
  create(@Payload() req: CreateCommitStatusRequest): Promise<CommitStatusDto> {
    return this.statuses.create(req);
  }

  @RpcHandler(CommitStatusSubjects.list)
  list(@Payload() req: ListCommitStatusesRequest): Promise<Paginated<CommitStatusDto>> {
    return this.statuses.list(req);
  }

  @RpcHandler(CommitStatusSubjects.combined)
  combined(@Payload() req: GetCombinedStatusRequest): Promise<CombinedStatusReply> {
    return this.statuses.combined(req);
  }
}
