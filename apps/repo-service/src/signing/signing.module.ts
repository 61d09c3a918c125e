import { Global, Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module.js';
import { SignaturesModule } from '../signatures/signatures.module.js';
import { VerifiedCommitsCheck } from '../signatures/verified-commits-check.js';
import { CommitSignatureCheck } from './commit-signature-check.js';
import { CommitSigner } from './commit-signer.js';
import { InstanceCommitSigner } from './instance-commit-signer.js';
import { InstanceSigningKey } from './instance-key.js';
import { SigningKeyHandler } from './signing-key.handler.js';

/**
 * Signing the commits repo-service creates with the instance key ({@link CommitSigner}), and serving that key's
 * public half (`repo.signing-key.get`). Global: repository creation, merges and file changes all sign.
 */
@Global()
@Module({
  imports: [AccessModule, SignaturesModule],
  controllers: [SigningKeyHandler],
  providers: [
    InstanceSigningKey,
    // The signing rules ask the commit verifier whether commits verify (any key source, as Gitea).
    { provide: CommitSignatureCheck, useExisting: VerifiedCommitsCheck },
    { provide: CommitSigner, useClass: InstanceCommitSigner },
  ],
  exports: [CommitSigner, InstanceSigningKey],
})
export class SigningModule {}
