import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcClient, RpcHandler } from '@cairn/platform';
import {
  CheckDeployKeyRequest, CreateKeyRequest, IdentitySubjects, RepoSubjects, KeyIdRequest, ListKeysRequest, ResolveKeyRequest, TouchKeyRequest, VerifySshKeyRequest,
  type CheckDeployKeyReply, type Paginated, type PublicKeyDto, type ResolveKeyReply,
} from '@cairn/contracts';
import { requireActor, requireBody } from '../common/require-actor.js';
import { KeysService } from './keys.service.js';

@Controller()
export class KeysHandler {
  constructor(
    private readonly keys: KeysService,
    private readonly rpc: RpcClient,
  ) {}

  @RpcHandler(IdentitySubjects.keyCreate)
  create(@Payload() req: CreateKeyRequest): Promise<PublicKeyDto> {
    return this.keys.create(
      requireActor(req.actor),
      requireBody(req.body),
      (fingerprint) => this.rpc.send(RepoSubjects.deployKeyFingerprintUsed, { fingerprint }),
      req.username,
    );
  }

  @RpcHandler(IdentitySubjects.keyCheckDeploy)
  checkDeploy(@Payload() req: CheckDeployKeyRequest): Promise<CheckDeployKeyReply> {
    return this.keys.checkDeploy(req.key);
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
    await this.keys.delete(requireActor(req.actor), req.id, req.username);
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
