import { Logger } from '@nestjs/common';
import {
  NOT_SIGNED_VERIFICATION,
  type PayloadCommitVerificationDto, type RepoRefDto, type SigningKeyOwner, type SigningKeysReply,
} from '@cairn/contracts';
import { LruCache } from '@cairn/platform';
import { type CatFilePool, parseCommitObject, type ParsedCommitObject, repoStoragePath } from '@cairn/git';
import type { TrustModel } from '../../foundation/config/signing-settings.js';
import { InstanceSigningKeys } from './instance-keys.js';
import { readPgpSignature, type PgpSignature } from './openpgp-signature.js';
import { SignatureChecker, type SignatureOutcome } from './signature-checker.js';
import { SignatureTrustSource, type TrustFacts } from './signature-trust.repository.js';
import { SigningKeyDirectory } from './signing-key-directory.js';
import { trustStatus, type TrustParty } from './trust-status.js';
import { VerificationCache } from './verification-cache.js';
import { VerificationReason, verifiedReason } from './verification-reasons.js';

export interface CommitToVerify {
  sha: string;
  commit: ParsedCommitObject;
}

/** Null when identity-service could not answer. */
type PageKeys = SigningKeysReply | null;

/** Per page: one `identity.signing.keys` call (if anything is signed), cached crypto, one trust query, memberships. */
export class CommitVerifier {
  private readonly logger = new Logger(CommitVerifier.name);
  private readonly outcomes = new VerificationCache();
  /** Null when unreadable; issuer ids are needed before the keys call. */
  private readonly pgpByCommit = new LruCache<Promise<PgpSignature | null>>(5_000);

  constructor(
    private readonly keys: SigningKeyDirectory,
    private readonly checker: SignatureChecker,
    private readonly instance: InstanceSigningKeys,
    private readonly trust: SignatureTrustSource,
    private readonly pool: CatFilePool,
    private readonly repoRoot: string,
    private readonly defaultTrustModel: TrustModel,
  ) {}

  /** For callers without the objects: file operations, pull commits. */
  async verifyCommits(repo: RepoRefDto, shas: string[]): Promise<Map<string, PayloadCommitVerificationDto>> {
    const commits = await this.read(repoStoragePath(this.repoRoot, repo.ownerName, repo.name), shas);
    return this.verify(repo, commits);
  }

  /** Gitea's `ParseCommitWithSignature(…).Verified` (any key source, no trust), for the `*signed` rules. */
  async verifiedAt(gitDir: string, shas: string[]): Promise<Map<string, boolean>> {
    const out = new Map(shas.map((sha) => [sha, false]));
    for (const [sha, ok] of await this.verifiedCommits(await this.read(gitDir, shas))) out.set(sha, ok);
    return out;
  }

  /** For objects still in a push's quarantine, where the pooled reader cannot see them. */
  async verifiedCommits(commits: CommitToVerify[]): Promise<Map<string, boolean>> {
    const out = new Map(commits.map((c) => [c.sha, false]));
    const signed = commits.filter((c) => c.commit.signature !== null);
    if (signed.length === 0) return out;
    const { outcomes } = await this.outcomesOf(signed);
    signed.forEach((c, i) => out.set(c.sha, outcomes[i].verified));
    return out;
  }

  async verify(repo: RepoRefDto, commits: CommitToVerify[]): Promise<Map<string, PayloadCommitVerificationDto>> {
    const out = new Map<string, PayloadCommitVerificationDto>();
    const signed = commits.filter((c) => c.commit.signature !== null);
    for (const c of commits) if (!c.commit.signature) out.set(c.sha, { ...NOT_SIGNED_VERIFICATION });
    if (signed.length === 0) return out;

    const { keys, outcomes } = await this.outcomesOf(signed);
    const trust = await this.trustOf(repo, signed, outcomes, keys);
    const byId = ownersById(keys);
    signed.forEach((c, i) => out.set(c.sha, this.render(c, outcomes[i], byId, trust(c, outcomes[i]))));
    return out;
  }

  private async read(gitDir: string, shas: string[]): Promise<CommitToVerify[]> {
    const unique = [...new Set(shas)];
    if (unique.length === 0) return [];
    const objects = await this.pool.run(gitDir, unique.map((sha) => ({ op: 'contents', object: sha })));
    const commits: CommitToVerify[] = [];
    objects.forEach((o, i) => {
      if (o?.type === 'commit' && o.data) commits.push({ sha: unique[i], commit: parseCommitObject(o.data) });
    });
    return commits;
  }

  private async outcomesOf(signed: CommitToVerify[]): Promise<{ keys: PageKeys; outcomes: SignatureOutcome[] }> {
    const pgp = await Promise.all(signed.map((c) => this.pgpOf(c)));
    const keys = await this.pageKeys(signed, pgp);
    const outcomes = await Promise.all(signed.map((c, i) => this.outcome(c, pgp[i], keys)));
    return { keys, outcomes };
  }

  /** Null for SSH, too large or unreadable ones. */
  private pgpOf(c: CommitToVerify): Promise<PgpSignature | null> {
    const sig = c.commit.signature!;
    if (sig.tooLarge || SignatureChecker.isSsh(sig)) return Promise.resolve(null);
    let hit = this.pgpByCommit.get(c.sha);
    if (!hit) {
      hit = readPgpSignature(sig.armored).catch(() => null);
      this.pgpByCommit.set(c.sha, hit);
    }
    return hit;
  }

  private async pageKeys(signed: CommitToVerify[], pgp: (PgpSignature | null)[]): Promise<PageKeys> {
    const emails = [...new Set(signed.map((c) => c.commit.committer.email.toLowerCase()).filter(Boolean))];
    const ids = new Set(pgp.map((p) => p?.keyId ?? '').filter(Boolean));
    const instanceKeyId = this.instance.instanceGpgKeyId();
    if (instanceKeyId && pgp.some(Boolean)) ids.add(instanceKeyId);
    try {
      return await this.keys.lookup({ emails, gpgKeyIds: [...ids] });
    } catch (err) {
      this.logger.warn(`signing keys unavailable, signatures are shown unverified: ${(err as Error).message}`);
      return null;
    }
  }

  private committerOf(c: CommitToVerify, keys: PageKeys): SigningKeyOwner | null {
    return keys?.byEmail[c.commit.committer.email.toLowerCase()] ?? null;
  }

  /** Cached only when the keys were had. */
  private async outcome(c: CommitToVerify, pgp: PgpSignature | null, keys: PageKeys): Promise<SignatureOutcome> {
    const committer = this.committerOf(c, keys);
    const gpgOwner = (id: string) => keys?.byGpgKeyId[id] ?? null;
    const consulted = [committer];
    if (pgp) consulted.push(gpgOwner(pgp.keyId), gpgOwner(this.instance.instanceGpgKeyId()));
    const cacheKey = this.outcomes.key(c.sha, consulted);
    if (keys) {
      const hit = this.outcomes.get(cacheKey);
      if (hit) return hit;
    }
    const outcome = await this.checker.check({
      signature: c.commit.signature!,
      committerEmail: c.commit.committer.email,
      committer,
      pgp,
      gpgKeyOwner: gpgOwner,
    });
    if (keys) this.outcomes.set(cacheKey, outcome);
    else if (!outcome.verified && (outcome.reason === VerificationReason.noKeyFound || outcome.reason === VerificationReason.badSignature)) {
      // Without the accounts' keys, a signature only instance keys verify says nothing: say why.
      return { verified: false, reason: VerificationReason.failedRetrieval };
    }
    return outcome;
  }

  /** Gitea's `ToVerification`. */
  private render(
    c: CommitToVerify,
    outcome: SignatureOutcome,
    owners: Map<number, SigningKeyOwner>,
    trust: PayloadCommitVerificationDto['trust_status'],
  ): PayloadCommitVerificationDto {
    const sig = c.commit.signature!;
    const base = {
      signature: sig.armored,
      payload: sig.tooLarge ? '' : sig.payload.toString('utf8'),
      trust_status: trust,
    };
    if (!outcome.verified) return { verified: false, reason: outcome.reason, signer: null, ...base };
    if (outcome.signer.kind === 'instance') {
      const { name, email } = this.instance.signer;
      return { verified: true, reason: verifiedReason(name, outcome.key), signer: { name, email, username: '' }, ...base };
    }
    const user = owners.get(outcome.signer.userId)?.user;
    const login = user?.login ?? '';
    return {
      verified: true,
      reason: verifiedReason(login, outcome.key),
      signer: { name: login, email: user?.email || outcome.signer.email, username: login },
      ...base,
    };
  }

  /** Repository facts are read only when something verified needs them; membership once per distinct signer. */
  private async trustOf(
    repo: RepoRefDto,
    signed: CommitToVerify[],
    outcomes: SignatureOutcome[],
    keys: PageKeys,
  ): Promise<(c: CommitToVerify, o: SignatureOutcome) => PayloadCommitVerificationDto['trust_status']> {
    const signerIds = new Set<number>();
    for (const o of outcomes) if (o.verified && o.signer.kind === 'user') signerIds.add(o.signer.userId);
    if (!outcomes.some((o) => o.verified)) return () => '';

    let facts: TrustFacts | null = null;
    let model = repo.trustModel;
    const needFacts = model === undefined || (signerIds.size > 0 && this.resolveModel(model) !== 'committer');
    if (needFacts) {
      facts = await this.trust.facts(repo.id, [...signerIds]);
      model ??= (facts?.trustModel as RepoRefDto['trustModel']) ?? 'default';
    }
    const resolved = this.resolveModel(model ?? 'default');
    const members = facts && resolved !== 'committer' ? await this.collaborators(facts, signerIds) : new Set<number>();
    const owners = ownersById(keys);

    return (c, o) => {
      if (!o.verified) return '';
      const committerOwner = this.committerOf(c, keys);
      const committer: TrustParty = committerOwner
        ? { id: committerOwner.user.id, email: committerOwner.user.email }
        : { id: 0, email: c.commit.committer.email };
      const signer: TrustParty =
        o.signer.kind === 'instance'
          ? { id: 0, email: this.instance.signer.email }
          : { id: o.signer.userId, email: owners.get(o.signer.userId)?.user.email || o.signer.email };
      return trustStatus(resolved, signer, committer, (id) => members.has(id));
    };
  }

  private resolveModel(model: string): TrustModel {
    return model === 'collaborator' || model === 'committer' || model === 'collaboratorcommitter'
      ? model
      : this.defaultTrustModel;
  }

  /** Gitea's `IsOwnerMemberCollaborator`. */
  private async collaborators(facts: TrustFacts, userIds: Set<number>): Promise<Set<number>> {
    const out = new Set<number>();
    const rest: number[] = [];
    for (const id of userIds) {
      if (id === facts.ownerId || facts.collaboratorIds.has(id)) out.add(id);
      else rest.push(id);
    }
    if (facts.ownerKind === 'organization' && rest.length) {
      const standings = await Promise.all(rest.map((id) => this.trust.membership(facts.ownerId, id).catch(() => null)));
      rest.forEach((id, i) => {
        const s = standings[i];
        if (s && (s.isOwner || s.teams.some((t) => t.includesAllRepositories || facts.teamIds.has(t.id)))) out.add(id);
      });
    }
    return out;
  }
}

function ownersById(keys: PageKeys): Map<number, SigningKeyOwner> {
  const out = new Map<number, SigningKeyOwner>();
  if (!keys) return out;
  for (const o of [...Object.values(keys.byEmail), ...Object.values(keys.byGpgKeyId)]) out.set(o.user.id, o);
  return out;
}
