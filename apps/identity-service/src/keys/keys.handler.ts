import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  CreateKeyRequest, IdentitySubjects, KeyIdRequest, ListKeysRequest, ResolveKeyRequest, TouchKeyRequest,
  type Paginated, type PublicKeyDto, type ResolveKeyReply,
} from '@cairn/contracts';
import { requireActor, requireBody } from '../common/require-actor.js';
import { KeysService } from './keys.service.js';

@Controller()
export class KeysHandler {
  constructor(private readonly keys: KeysService) {}

  @MessagePattern(IdentitySubjects.keyCreate)
  create(@Payload() req: CreateKeyRequest): Promise<PublicKeyDto> {
    return this.keys.create(requireActor(req.actor), requireBody(req.body));
  }

  @MessagePattern(IdentitySubjects.keyList)
  list(@Payload() req: ListKeysRequest): Promise<Paginated<PublicKeyDto>> {
    return this.keys.list(req.actor ?? null, req.username, req.query ?? {});
  }

  @MessagePattern(IdentitySubjects.keyGet)
  get(@Payload() req: KeyIdRequest): Promise<PublicKeyDto> {
    return this.keys.get(requireActor(req.actor), req.id);
  }

  @MessagePattern(IdentitySubjects.keyDelete)
  async delete(@Payload() req: KeyIdRequest): Promise<{ ok: true }> {
    await this.keys.delete(requireActor(req.actor), req.id);
    return { ok: true };
  }

  @MessagePattern(IdentitySubjects.keyResolve)
  resolve(@Payload() req: ResolveKeyRequest): Promise<ResolveKeyReply> {
    return this.keys.resolve(req.keyBlobBase64);
  }

  @MessagePattern(IdentitySubjects.keyTouch)
  touch(@Payload() req: TouchKeyRequest): { ok: true } {
    this.keys.touch(req.keyId);
    return { ok: true };
  }
}
