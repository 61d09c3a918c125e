import { Global, Module } from '@nestjs/common';
import { AccessModule } from '../../foundation/access/access.module.js';
import { CommitSigner } from '../merge/commit-signer.js';
import { InstanceCommitSigner } from './instance-commit-signer.js';
import { InstanceSigningKey } from './instance-key.js';
import { SigningKeyHandler } from './signing-key.handler.js';

/** Global: repository creation, merges and file changes all sign with the instance key. */
@Global()
@Module({
  imports: [AccessModule],
  controllers: [SigningKeyHandler],
  providers: [
    InstanceSigningKey,
    { provide: CommitSigner, useClass: InstanceCommitSigner },
  ],
  exports: [CommitSigner, InstanceSigningKey],
})
export class SigningModule {}
