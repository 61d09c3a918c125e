import { Injectable } from '@nestjs/common';
import type { SigningContext } from '../merge/commit-signer.js';
import { InstanceSigningKey } from './instance-key.js';
import { commitSignedByKey } from './instance-signature.js';

/** Whether commits' signatures verify, for `parentsigned`, `basesigned`, `headsigned`, `commitssigned`. */
export abstract class CommitSignatureCheck {
  /** True when every one of `shas` (commits of the repository in `ctx`) has a signature that verifies. */
  abstract allVerify(ctx: SigningContext, shas: string[]): Promise<boolean>;
}

/** Until the commit verifier is bound in its place: only the instance key's own signatures count. */
@Injectable()
export class InstanceKeySignatureCheck extends CommitSignatureCheck {
  constructor(private readonly instanceKey: InstanceSigningKey) {
    super();
  }

  async allVerify(ctx: SigningContext, shas: string[]): Promise<boolean> {
    const key = await this.instanceKey.publicKey(ctx.gitDir);
    if (!key) return false;
    for (const sha of shas) if (!(await commitSignedByKey(ctx.gitDir, sha, key))) return false;
    return true;
  }
}
