import type { OrgMembershipReply } from '@cairn/contracts';
import { loadRepoSettings } from '../../../foundation/config/repo-settings.js';
import type { CatFilePool } from '@cairn/git';
import { CommitVerifier } from '../commit-verifier.js';
import { InstanceSigningKey } from '../../signing/instance-key.js';
import { InstanceSigningKeys } from '../instance-keys.js';
import { SignatureChecker } from '../signature-checker.js';
import { SignatureTrustSource, type TrustFacts } from '../signature-trust.repository.js';
import { FixedSigningKeys } from './signing-owners.js';

/** A repository's trust facts as its row would say them (counting reads), and organization standings by user. */
export class FixedTrust extends SignatureTrustSource {
  reads = 0;
  ownerKind = 'user';
  teamIds: number[] = [];
  standings = new Map<number, OrgMembershipReply>();
  constructor(
    public trustModel = 'default',
    public collaborators: number[] = [],
    public ownerId = 1,
  ) {
    super();
  }

  facts(_repoId: number, userIds: number[]): Promise<TrustFacts> {
    this.reads += 1;
    return Promise.resolve({
      trustModel: this.trustModel,
      ownerId: this.ownerId,
      ownerKind: this.ownerKind,
      collaboratorIds: new Set(userIds.filter((id) => this.collaborators.includes(id))),
      teamIds: new Set(this.teamIds),
    });
  }

  membership(_orgId: number, userId: number): Promise<OrgMembershipReply> {
    return Promise.resolve(this.standings.get(userId) ?? { isMember: false, isOwner: false, teams: [] });
  }
}

/** A real CommitVerifier over in-memory keys and trust facts; `pool`/`repoRoot` serve `verifyCommits` only. */
export function testCommitVerifier(
  options: { env?: Record<string, string>; trust?: FixedTrust; pool?: CatFilePool; repoRoot?: string } = {},
): { verifier: CommitVerifier; keys: FixedSigningKeys; trust: FixedTrust } {
  const settings = loadRepoSettings({
    CAIRN__REPOSITORY_SIGNING__SIGNING_KEY: 'none',
    CAIRN__REPOSITORY_SIGNING__SIGNING_NAME: 'Cairn',
    CAIRN__REPOSITORY_SIGNING__SIGNING_EMAIL: 'cairn@instance.test',
    ...options.env,
  });
  const instance = new InstanceSigningKeys(settings, new InstanceSigningKey(settings));
  const keys = new FixedSigningKeys();
  const trust = options.trust ?? new FixedTrust();
  const verifier = new CommitVerifier(
    keys,
    new SignatureChecker(settings, instance),
    instance,
    trust,
    // Without a pool only verify() (commits already read) may be used.
    options.pool ?? (null as unknown as CatFilePool),
    options.repoRoot ?? '/nonexistent',
    settings.defaultTrustModel,
  );
  return { verifier, keys, trust };
}
