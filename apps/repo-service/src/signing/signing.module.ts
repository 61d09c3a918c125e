import { Module } from '@nestjs/common';
import { CommitSigner } from './commit-signer.js';
import { NeverSignCommitSigner } from './never-sign.js';

/** Provides the {@link CommitSigner} the commits repo-service creates ask whether and how to sign. */
@Module({
  providers: [{ provide: CommitSigner, useClass: NeverSignCommitSigner }],
  exports: [CommitSigner],
})
export class SigningModule {}
