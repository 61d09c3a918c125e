import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { RepoAccessRequest, RepoSubjects, type RepoAccessReply } from '@cairn/contracts';
import { AccessService } from './access.service.js';

@Controller()
export class AccessHandler {
  constructor(private readonly access: AccessService) {}

  @RpcHandler(RepoSubjects.accessResolve)
  resolve(@Payload() req: RepoAccessRequest): Promise<RepoAccessReply> {
    return this.access.resolve(req.actor ?? null, req.owner, req.repo);
  }
}
