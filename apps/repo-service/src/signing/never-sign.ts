import { Injectable } from '@nestjs/common';
import { CommitSigner, type CommitSigning } from './commit-signer.js';

/** Leaves every commit unsigned: the binding until the `[repository.signing]` rules are implemented. */
@Injectable()
export class NeverSignCommitSigner extends CommitSigner {
  decide(): Promise<CommitSigning | null> {
    return Promise.resolve(null);
  }
}
