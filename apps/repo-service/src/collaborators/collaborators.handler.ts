import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AddCollaboratorRequest, CollaboratorRequest, ListCollaboratorsRequest, RepoSubjects,
  type Paginated, type RepoCollaboratorPermissionDto, type UserDto,
} from '@cairn/contracts';
import { CollaboratorsService } from './collaborators.service.js';

@Controller()
export class CollaboratorsHandler {
  constructor(private readonly collaborators: CollaboratorsService) {}

  @MessagePattern(RepoSubjects.collaboratorList)
  list(@Payload() req: ListCollaboratorsRequest): Promise<Paginated<UserDto>> {
    return this.collaborators.list(req);
  }

  @MessagePattern(RepoSubjects.collaboratorCheck)
  check(@Payload() req: CollaboratorRequest): Promise<boolean> {
    return this.collaborators.isCollaborator(req);
  }

  @MessagePattern(RepoSubjects.collaboratorAdd)
  async add(@Payload() req: AddCollaboratorRequest): Promise<null> {
    await this.collaborators.add(req);
    return null;
  }

  @MessagePattern(RepoSubjects.collaboratorRemove)
  async remove(@Payload() req: CollaboratorRequest): Promise<null> {
    await this.collaborators.remove(req);
    return null;
  }

  @MessagePattern(RepoSubjects.collaboratorPermission)
  permission(@Payload() req: CollaboratorRequest): Promise<RepoCollaboratorPermissionDto> {
    return this.collaborators.permission(req);
  }
}
