// The commit verifier of the benchmarks: repo-service's own `CommitVerifier` (settings, checker, cache) with the keys
// identity-service would answer held in memory (one bus call per page in production) and trust facts of a
// user-owned repository where nobody collaborates (one query in production, none here).
import { loadRepoSettings } from '../apps/repo-service/dist/shared/config/repo-settings.js';
import { CommitVerifier } from '../apps/repo-service/dist/git-core/signatures/commit-verifier.js';
import { InstanceSigningKeys } from '../apps/repo-service/dist/git-core/signatures/instance-keys.js';
import { InstanceSigningKey } from '../apps/repo-service/dist/git-core/signing/instance-key.js';
import { SignatureChecker } from '../apps/repo-service/dist/git-core/signatures/signature-checker.js';
import { SignatureTrustSource } from '../apps/repo-service/dist/git-core/signatures/signature-trust.repository.js';
import { SigningKeyDirectory } from '../apps/repo-service/dist/git-core/signatures/signing-key-directory.js';

class MemoryKeys extends SigningKeyDirectory {
  constructor(owners) {
    super();
    this.owners = owners;
  }
  async lookup(req) {
    const byEmail = {};
    for (const e of req.emails) {
      const o = this.owners.find((x) => x.user.email === e);
      if (o) byEmail[e] = o;
    }
    return { byEmail, byGpgKeyId: {} };
  }
}

class NoCollaborators extends SignatureTrustSource {
  async facts() {
    return { trustModel: 'default', ownerId: 1, ownerKind: 'user', collaboratorIds: new Set(), teamIds: new Set() };
  }
  async membership() {
    return { isMember: false, isOwner: false, teams: [] };
  }
}

/** `owners`: accounts with signing keys (`SigningKeyOwner`), found by their e-mail. */
export function benchVerifier({ pool, root, owners = [], env = {} }) {
  const settings = loadRepoSettings({ CAIRN__REPOSITORY_SIGNING__SIGNING_KEY: 'none', ...env });
  const instance = new InstanceSigningKeys(settings, new InstanceSigningKey(settings));
  return new CommitVerifier(
    new MemoryKeys(owners),
    new SignatureChecker(settings, instance),
    instance,
    new NoCollaborators(),
    pool,
    root,
    settings.defaultTrustModel,
  );
}
