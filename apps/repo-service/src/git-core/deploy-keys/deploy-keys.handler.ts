import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateDeployKeyRequest, DeployKeyFingerprintRequest, DeployKeyIdRequest, ListDeployKeysRequest, RepoSubjects,
  type DeployKeyDto, type Paginated,
} from '@cairn/contracts';
import { DeployKeysService } from './deploy-keys.service.js';

@Controller()
export class DeployKeysHandler {
  constructor(private readonly keys: DeployKeysService) {}

  @RpcHandler(RepoSubjects.deployKeyList)
  list(@Payload() req: ListDeployKeysRequest): Promise<Paginated<DeployKeyDto>> {
    return this.keys.list(req);
  }

  @RpcHandler(RepoSubjects.deployKeyCreate)
  create(@Payload() req: CreateDeployKeyRequest): Promise<DeployKeyDto> {
    return this.keys.create(req);
  }

  @RpcHandler(RepoSubjects.deployKeyGet)
  get(@Payload() req: DeployKeyIdRequest): Promise<DeployKeyDto> {
    return this.keys.get(req);
  }

  @RpcHandler(RepoSubjects.deployKeyDelete)
  async delete(@Payload() req: DeployKeyIdRequest): Promise<null> {
    await this.keys.delete(req);
    return null;
  }

  @RpcHandler(RepoSubjects.deployKeyFingerprintUsed)
  fingerprintUsed(@Payload() req: DeployKeyFingerprintRequest): Promise<boolean> {
    return this.keys.fingerprintUsed(req.fingerprint);
  }
}
