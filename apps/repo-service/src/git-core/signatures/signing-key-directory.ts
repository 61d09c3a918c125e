import { Injectable } from '@nestjs/common';
import { IdentitySubjects, type SigningKeysReply, type SigningKeysRequest } from '@cairn/contracts';
import { RpcClient } from '@cairn/platform';

export abstract class SigningKeyDirectory {
  /** The committers' accounts by e-mail and the owners of the OpenPGP key ids (one call per page). */
  abstract lookup(req: SigningKeysRequest): Promise<SigningKeysReply>;
}

@Injectable()
export class RpcSigningKeyDirectory extends SigningKeyDirectory {
  constructor(private readonly rpc: RpcClient) {
    super();
  }

  lookup(req: SigningKeysRequest): Promise<SigningKeysReply> {
    return this.rpc.send(IdentitySubjects.signingKeys, req);
  }
}
