import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateReleaseRequest, EditReleaseRequest, ListReleasesRequest, ReleaseIdRequest, ReleaseSubjects, ReleaseTagRequest,
  RepoScopedRequest,
  type Paginated, type ReleaseDto,
} from '@cairn/contracts';
import { ReleasesService } from './releases.service.js';

/** Releases. */
@Controller()
export class ReleasesHandler {
  constructor(private readonly releases: ReleasesService) {}

  @RpcHandler(ReleaseSubjects.list)
  list(@Payload() req: ListReleasesRequest): Promise<Paginated<ReleaseDto>> {
    return this.releases.list(req);
  }

  @RpcHandler(ReleaseSubjects.get)
  get(@Payload() req: ReleaseIdRequest): Promise<ReleaseDto> {
    return this.releases.get(req);
  }

  @RpcHandler(ReleaseSubjects.getByTag)
  getByTag(@Payload() req: ReleaseTagRequest): Promise<ReleaseDto> {
    return this.releases.getByTag(req);
  }

  @RpcHandler(ReleaseSubjects.latest)
  latest(@Payload() req: RepoScopedRequest): Promise<ReleaseDto> {
    return this.releases.latest(req);
  }

  @RpcHandler(ReleaseSubjects.create)
  create(@Payload() req: CreateReleaseRequest): Promise<ReleaseDto> {
    return this.releases.create(req);
  }

  @RpcHandler(ReleaseSubjects.edit)
  edit(@Payload() req: EditReleaseRequest): Promise<ReleaseDto> {
    return this.releases.edit(req);
  }

  @RpcHandler(ReleaseSubjects.delete)
  delete(@Payload() req: ReleaseIdRequest): Promise<null> {
    return this.releases.delete(req);
  }

  @RpcHandler(ReleaseSubjects.deleteByTag)
  deleteByTag(@Payload() req: ReleaseTagRequest): Promise<null> {
    return this.releases.deleteByTag(req);
  }
}
