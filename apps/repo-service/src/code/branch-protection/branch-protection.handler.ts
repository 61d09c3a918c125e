import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  BranchProtectionRequest, CreateBranchProtectionRequest, EditBranchProtectionRequest, RepoScopedRequest, RepoSubjects,
  type BranchProtectionDto,
} from '@cairn/contracts';
import { BranchProtectionService } from './branch-protection.service.js';

@Controller()
export class BranchProtectionHandler {
  constructor(private readonly protection: BranchProtectionService) {}

  @RpcHandler(RepoSubjects.branchProtectionList)
  list(@Payload() req: RepoScopedRequest): Promise<BranchProtectionDto[]> {
    return this.protection.list(req);
  }

  @RpcHandler(RepoSubjects.branchProtectionGet)
  get(@Payload() req: BranchProtectionRequest): Promise<BranchProtectionDto> {
    return this.protection.get(req);
  }

  @RpcHandler(RepoSubjects.branchProtectionCreate)
  create(@Payload() req: CreateBranchProtectionRequest): Promise<BranchProtectionDto> {
    return this.protection.create(req);
  }

  @RpcHandler(RepoSubjects.branchProtectionEdit)
  edit(@Payload() req: EditBranchProtectionRequest): Promise<BranchProtectionDto> {
    return this.protection.edit(req);
  }

  @RpcHandler(RepoSubjects.branchProtectionDelete)
  async remove(@Payload() req: BranchProtectionRequest): Promise<null> {
    await this.protection.remove(req);
    return null;
  }
}
