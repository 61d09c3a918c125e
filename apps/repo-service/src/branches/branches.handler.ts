import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  GetBranchRequest, ListBranchesRequest, RepoSubjects, type BranchDto, type Paginated,
} from '@cairn/contracts';
import { BranchesService } from './branches.service.js';

/** Branch list and one branch (also used by other services, e.g. hooks-service for test payloads). */
@Controller()
export class BranchesHandler {
  constructor(private readonly branches: BranchesService) {}

  @MessagePattern(RepoSubjects.branchList)
  list(@Payload() req: ListBranchesRequest): Promise<Paginated<BranchDto>> {
    return this.branches.list(req);
  }

  @MessagePattern(RepoSubjects.branchGet)
  get(@Payload() req: GetBranchRequest): Promise<BranchDto> {
    return this.branches.get(req);
  }
}
