import { Injectable } from '@nestjs/common';
import type { SigningContext } from '../merge/commit-signer.js';
import { InstanceSigningKey } from './instance-key.js';
import { commitSignedByKey } from './instance-signature.js';

/**
 * Whether commits carry signatures that verify — what the parentsigned, basesigned, headsigned and commitssigned
 * rules ask (Gitea: `ParseCommitWithSignature(…).Verified`).
 */
export abstract class CommitSignatureCheck {
  /** True when every one of `shas` (commits of the repository in `ctx`) has a signature that verifies. */
  abstract allVerify(ctx: SigningContext, shas: string[]): Promise<boolean>;
}

/**
 * The check until the commit verifier (`signatures/`) is bound in its place: a commit verifies when it carries a
 * signature of the instance key — the commits Cairn signed itself — and no other signature counts.
 */
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
