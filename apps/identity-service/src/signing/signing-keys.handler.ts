import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import { IdentitySubjects, SigningKeysRequest, type SigningKeysReply } from '@cairn/contracts';
import { SigningKeysService } from './signing-keys.service.js';

@Controller()
export class SigningKeysHandler {
  constructor(private readonly signing: SigningKeysService) {}

  @RpcHandler(IdentitySubjects.signingKeys)
  signingKeys(@Payload() req: SigningKeysRequest): Promise<SigningKeysReply> {
    return this.signing.signingKeys(req);
  }
}
