import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  ActorRequest, CreateGpgKeyRequest, IdentitySubjects, KeyIdRequest, ListGpgKeysRequest, VerifyGpgKeyRequest,
  type GpgKeyDto, type Paginated,
} from '@cairn/contracts';
import { requireActor, requireBody } from '../common/require-actor.js';
import { GpgKeysService } from './gpg-keys.service.js';

@Controller()
export class GpgKeysHandler {
  constructor(private readonly keys: GpgKeysService) {}

  @RpcHandler(IdentitySubjects.gpgKeyCreate)
  create(@Payload() req: CreateGpgKeyRequest): Promise<GpgKeyDto> {
    return this.keys.create(requireActor(req.actor), requireBody(req.body));
  }

  @RpcHandler(IdentitySubjects.gpgKeyList)
  list(@Payload() req: ListGpgKeysRequest): Promise<Paginated<GpgKeyDto>> {
    return this.keys.list(req.actor ?? null, req.username, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.gpgKeyGet)
  get(@Payload() req: KeyIdRequest): Promise<GpgKeyDto> {
    return this.keys.get(requireActor(req.actor), req.id);
  }

  @RpcHandler(IdentitySubjects.gpgKeyDelete)
  async delete(@Payload() req: KeyIdRequest): Promise<{ ok: true }> {
    await this.keys.delete(requireActor(req.actor), req.id);
    return { ok: true };
  }

  @RpcHandler(IdentitySubjects.gpgKeyVerify)
  verify(@Payload() req: VerifyGpgKeyRequest): Promise<GpgKeyDto> {
    return this.keys.verify(requireActor(req.actor), requireBody(req.body));
  }

  @RpcHandler(IdentitySubjects.keyVerificationToken)
  async token(@Payload() req: ActorRequest): Promise<{ token: string }> {
    return { token: await this.keys.token(requireActor(req.actor)) };
  }
}
