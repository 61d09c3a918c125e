import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  CreateKeyRequest, IdentitySubjects, KeyIdRequest, ListKeysRequest, ResolveKeyRequest, TouchKeyRequest, VerifySshKeyRequest,
  type Paginated, type PublicKeyDto, type ResolveKeyReply,
} from '@cairn/contracts';
import { requireActor, requireBody } from '../common/require-actor.js';
import { KeysService } from './keys.service.js';

@Controller()
export class KeysHandler {
  constructor(private readonly keys: KeysService) {}

  @RpcHandler(IdentitySubjects.keyCreate)
  create(@Payload() req: CreateKeyRequest): Promise<PublicKeyDto> {
    return this.keys.create(requireActor(req.actor), requireBody(req.body));
  }

  @RpcHandler(IdentitySubjects.keyList)
  list(@Payload() req: ListKeysRequest): Promise<Paginated<PublicKeyDto>> {
    return this.keys.list(req.actor ?? null, req.username, req.query ?? {});
  }

  @RpcHandler(IdentitySubjects.keyGet)
  get(@Payload() req: KeyIdRequest): Promise<PublicKeyDto> {
    return this.keys.get(requireActor(req.actor), req.id);
  }

  @RpcHandler(IdentitySubjects.keyDelete)
  async delete(@Payload() req: KeyIdRequest): Promise<{ ok: true }> {
    await this.keys.delete(requireActor(req.actor), req.id);
    return { ok: true };
  }

  @RpcHandler(IdentitySubjects.keyVerify)
  verify(@Payload() req: VerifySshKeyRequest): Promise<PublicKeyDto> {
    return this.keys.verify(requireActor(req.actor), requireBody(req.body));
  }

  @RpcHandler(IdentitySubjects.keyResolve)
  resolve(@Payload() req: ResolveKeyRequest): Promise<ResolveKeyReply> {
    return this.keys.resolve(req.keyBlobBase64);
  }

  @RpcHandler(IdentitySubjects.keyTouch)
  touch(@Payload() req: TouchKeyRequest): { ok: true } {
    this.keys.touch(req.keyId);
    return { ok: true };
  }
}
