import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  AddCollaboratorRequest, CollaboratorRequest, ListCollaboratorsRequest, RepoSubjects,
  type Paginated, type RepoCollaboratorPermissionDto, type UserDto,
} from '@cairn/contracts';
import { CollaboratorsService } from './collaborators.service.js';

@Controller()
export class CollaboratorsHandler {
  constructor(private readonly collaborators: CollaboratorsService) {}

  @RpcHandler(RepoSubjects.collaboratorList)
  list(@Payload() req: ListCollaboratorsRequest): Promise<Paginated<UserDto>> {
    return this.collaborators.list(req);
  }

  @RpcHandler(RepoSubjects.collaboratorCheck)
  check(@Payload() req: CollaboratorRequest): Promise<boolean> {
    return this.collaborators.isCollaborator(req);
  }

  @RpcHandler(RepoSubjects.collaboratorAdd)
  async add(@Payload() req: AddCollaboratorRequest): Promise<null> {
    await this.collaborators.add(req);
    return null;
  }

  @RpcHandler(RepoSubjects.collaboratorRemove)
  async remove(@Payload() req: CollaboratorRequest): Promise<null> {
    await this.collaborators.remove(req);
    return null;
  }

  @RpcHandler(RepoSubjects.collaboratorPermission)
  permission(@Payload() req: CollaboratorRequest): Promise<RepoCollaboratorPermissionDto> {
    return this.collaborators.permission(req);
  }
}
