import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  GetBranchRequest, ListBranchesRequest, RepoSubjects, type BranchDto, type Paginated,
} from '@cairn/contracts';
import { BranchesService } from './branches.service.js';

/** Branch list and one branch (also used by other services, e.g. hooks-service for test payloads). */
@Controller()
export class BranchesHandler {
  constructor(private readonly branches: BranchesService) {}

  @RpcHandler(RepoSubjects.branchList)
  list(@Payload() req: ListBranchesRequest): Promise<Paginated<BranchDto>> {
    return this.branches.list(req);
  }

  @RpcHandler(RepoSubjects.branchGet)
  get(@Payload() req: GetBranchRequest): Promise<BranchDto> {
    return this.branches.get(req);
  }
}
