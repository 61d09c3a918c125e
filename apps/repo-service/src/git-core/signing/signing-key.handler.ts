import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { GetSigningKeyRequest, RepoSubjects, type SigningKeyReply } from '@cairn/contracts';
import { RpcHandler } from '@cairn/platform';
import { RepoStorage } from '../storage/repo-storage.js';
import { InstanceSigningKey } from './instance-key.js';

/** `GET /signing-key.{gpg,pub}` and `GET /repos/{o}/{r}/signing-key.{gpg,pub}` (the gateway checked read access). */
@Controller()
export class SigningKeyHandler {
  constructor(
    private readonly instanceKey: InstanceSigningKey,
    private readonly storage: RepoStorage,
  ) {}

  @RpcHandler(RepoSubjects.signingKeyGet)
  async get(@Payload() req: GetSigningKeyRequest): Promise<SigningKeyReply> {
    const dir = req.repo ? this.storage.pathFor(req.repo) : null;
    return { content: await this.instanceKey.publicKeyIn(req.format, dir) };
  }
}
