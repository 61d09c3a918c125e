import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { CreateBranchRequest, DeleteBranchRequest, RenameBranchRequest, RepoSubjects, type BranchDto } from '@cairn/contracts';
import { BranchWritesService } from './branch-writes.service.js';

/** Branch creation, renaming and deletion (the API's; pushes go through the transports). */
@Controller()
export class BranchWritesHandler {
  constructor(private readonly writes: BranchWritesService) {}

  @RpcHandler(RepoSubjects.branchCreate)
  create(@Payload() req: CreateBranchRequest): Promise<BranchDto> {
    return this.writes.create(req);
  }

  @RpcHandler(RepoSubjects.branchDelete)
  async delete(@Payload() req: DeleteBranchRequest): Promise<null> {
    await this.writes.delete(req);
    return null;
  }

  @RpcHandler(RepoSubjects.branchRename)
  async rename(@Payload() req: RenameBranchRequest): Promise<null> {
    await this.writes.rename(req);
    return null;
  }
}
