import { Global, Module } from '@nestjs/common';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { AccessModule } from '../../foundation/access/access.module.js';
import { CommitSignatureCheck } from '../signing/commit-signature-check.js';
import { REPO_SETTINGS, type RepoSettings } from '../../foundation/config/repo-settings.js';
import { sharedCatFilePool } from '../git/shared-pool.js';
import { CommitVerifier } from './commit-verifier.js';
import { InstanceSigningKeys } from './instance-keys.js';
import { SignatureChecker } from './signature-checker.js';
import { SignatureTrustRepository, SignatureTrustSource } from './signature-trust.repository.js';
import { RpcSigningKeyDirectory, SigningKeyDirectory } from './signing-key-directory.js';
import { VerifiedCommitsCheck } from './verified-commits-check.js';

/** Global: signing asks it through the {@link CommitSignatureCheck} port whether commits verify (any key source). */
@Global()
@Module({
  imports: [AccessModule],
  providers: [
    InstanceSigningKeys,
    SignatureChecker,
    VerifiedCommitsCheck,
    { provide: CommitSignatureCheck, useExisting: VerifiedCommitsCheck },
    { provide: SigningKeyDirectory, useClass: RpcSigningKeyDirectory },
    { provide: SignatureTrustSource, useClass: SignatureTrustRepository },
    {
      provide: CommitVerifier,
      inject: [SigningKeyDirectory, SignatureChecker, InstanceSigningKeys, SignatureTrustSource, COMMON_SETTINGS, REPO_SETTINGS],
      useFactory: (
        keys: SigningKeyDirectory,
        checker: SignatureChecker,
        instance: InstanceSigningKeys,
        trust: SignatureTrustSource,
        common: CommonSettings,
        settings: RepoSettings,
      ) => new CommitVerifier(keys, checker, instance, trust, sharedCatFilePool(), common.repoRoot, settings.defaultTrustModel),
    },
  ],
  exports: [CommitVerifier, InstanceSigningKeys, VerifiedCommitsCheck, CommitSignatureCheck],
})
export class SignaturesModule {}
