import { Injectable } from '@nestjs/common';
import { CommitSignatureCheck } from '../signing/commit-signature-check.js';
import type { SigningContext } from '../merge/commit-signer.js';
import { CommitVerifier } from './commit-verifier.js';

@Injectable()
export class VerifiedCommitsCheck extends CommitSignatureCheck {
  constructor(private readonly verifier: CommitVerifier) {
    super();
  }

  async allVerify(ctx: SigningContext, shas: string[]): Promise<boolean> {
    if (shas.length === 0) return true;
    const verified = await this.verifier.verifiedAt(ctx.gitDir, shas);
    return shas.every((sha) => verified.get(sha) === true);
  }
}
