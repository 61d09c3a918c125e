import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  RunnersSubjects, SecretListRequest, SecretPutRequest, SecretRequest, type Paginated, type SecretDto,
  type SecretPutReply,
} from '@cairn/contracts';
import { SecretsService } from './secrets.service.js';

@Controller()
export class SecretsHandler {
  constructor(private readonly secrets: SecretsService) {}

  @RpcHandler(RunnersSubjects.secretList)
  list(@Payload() req: SecretListRequest): Promise<Paginated<SecretDto>> {
    return this.secrets.list(req.actor, req.scope, req.query);
  }

  @RpcHandler(RunnersSubjects.secretPut)
  put(@Payload() req: SecretPutRequest): Promise<SecretPutReply> {
    return this.secrets.put(req.actor, req.scope, req.name, req.body);
  }

  @RpcHandler(RunnersSubjects.secretDelete)
  async delete(@Payload() req: SecretRequest): Promise<Record<string, never>> {
    await this.secrets.delete(req.actor, req.scope, req.name);
    return {};
  }
}
