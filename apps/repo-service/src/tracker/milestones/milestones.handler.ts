import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateMilestoneRequest, EditMilestoneRequest, ListMilestonesRequest, MilestoneIdRequest, MilestoneSubjects,
  type MilestoneDto, type Paginated,
} from '@cairn/contracts';
import { MilestonesService } from './milestones.service.js';

/** Repository milestones. */
@Controller()
export class MilestonesHandler {
  constructor(private readonly milestones: MilestonesService) {}

  @RpcHandler(MilestoneSubjects.list)
  list(@Payload() req: ListMilestonesRequest): Promise<Paginated<MilestoneDto>> {
    return this.milestones.list(req);
  }

  @RpcHandler(MilestoneSubjects.create)
  create(@Payload() req: CreateMilestoneRequest): Promise<MilestoneDto> {
    return this.milestones.create(req);
  }

  @RpcHandler(MilestoneSubjects.get)
  get(@Payload() req: MilestoneIdRequest): Promise<MilestoneDto> {
    return this.milestones.get(req);
  }

  @RpcHandler(MilestoneSubjects.edit)
  edit(@Payload() req: EditMilestoneRequest): Promise<MilestoneDto> {
    return this.milestones.edit(req);
  }

  @RpcHandler(MilestoneSubjects.delete)
  async delete(@Payload() req: MilestoneIdRequest): Promise<null> {
    await this.milestones.delete(req);
    return null;
  }
}
