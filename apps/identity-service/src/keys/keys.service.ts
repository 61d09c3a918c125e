import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, toPaging,
  type ActorDto, type CheckDeployKeyReply, type CreateKeyBody, type VerifySshKeyBody, type ListKeysQuery, type Paginated, type PublicKeyDto, type ResolveKeyReply,
} from '@cairn/contracts';
import { COMMON_SETTINGS, verifySshSignature, type CommonSettings, uniqueViolation } from '@cairn/platform';
import { CLOCK, type Clock } from '../common/clock.js';
import { assertCanSignIn } from '../common/sign-in.js';
import { canSeeUser } from '../common/visibility.js';
import { IDENTITY_SETTINGS, minimumKeySizes, type IdentitySettings } from '../config/identity-settings.js';
import { UsersRepository } from '../users/users.repository.js';
import { toPublicKeyDto } from './key.mapper.js';
import { keySizeProblem, parseAuthorizedKey, parseKeyBlob, type ParsedPublicKey } from './key-rules.js';
import { KeyUsage } from './key-usage.js';
import { KeysRepository } from './keys.repository.js';
import { acceptedVerificationTokens, tokenVariants } from './verification-token.js';

@Injectable()
export class KeysService {
  private readonly minimums: Record<string, number>;

  constructor(
    private readonly keys: KeysRepository,
    private readonly users: UsersRepository,
    private readonly usage: KeyUsage,
    @Inject(IDENTITY_SETTINGS) private readonly settings: IdentitySettings,
    @Inject(COMMON_SETTINGS) private readonly common: CommonSettings,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.minimums = minimumKeySizes(settings);
  }

  /** A key is a user's or a deploy key, never both (Gitea's rule): repo-service is asked about deploy keys. */
  async create(
    actor: ActorDto,
    body: CreateKeyBody,
    isDeployKey: (fingerprint: string) => Promise<boolean> = async () => false,
    username?: string,
  ): Promise<PublicKeyDto> {
    const ownerId = username === undefined ? actor.id : await this.adminTarget(actor, username);
    const parsed = this.acceptable(body.key);
    const title = body.title.trim();
    if (await this.keys.fingerprintExists(parsed.fingerprint)) throw DomainError.unprocessable('key already exists');
    if (await isDeployKey(parsed.fingerprint)) throw DomainError.unprocessable('key already exists (as a deploy key)');
    if (await this.keys.titleExists(ownerId, title)) throw DomainError.unprocessable('key title has been used already');
    try {
      const row = await this.keys.create({
        userId: ownerId,
        title,
        content: parsed.content,
        fingerprint: parsed.fingerprint,
        algorithm: parsed.algorithm,
        bits: parsed.bits,
      });
      return toPublicKeyDto(row, this.common.rootUrl, actor);
    } catch (err) {
      if (uniqueViolation(err)?.includes('fingerprint')) throw DomainError.unprocessable('key already exists');
      throw err;
    }
  }

  /** The user a site admin acts for (`/admin/users/{username}/keys`). */
  private async adminTarget(actor: ActorDto, username: string): Promise<number> {
    if (!actor.isAdmin) throw DomainError.forbidden('reqSiteAdmin');
    const user = await this.users.findUserByName(username);
    if (!user) throw DomainError.notFound(`user "${username}" does not exist`);
    return user.id;
  }

  /** A key offered as a deploy key: the same content and size rules, and it must not be a user's key (Gitea). */
  async checkDeploy(key: string): Promise<CheckDeployKeyReply> {
    const parsed = this.acceptable(key);
    if (await this.keys.fingerprintExists(parsed.fingerprint)) {
      throw DomainError.unprocessable('Key content has been used as non-deploy key');
    }
    return { content: parsed.content, fingerprint: parsed.fingerprint };
  }

  private acceptable(key: string): ParsedPublicKey {
    const parsed = parseAuthorizedKey(key);
    if (!parsed) throw DomainError.unprocessable('invalid public key');
    if (this.settings.minimumKeySizeCheck) {
      const problem = keySizeProblem(parsed, this.minimums);
      if (problem) throw DomainError.unprocessable(`invalid public key: ${problem}`);
    }
    return parsed;
  }

  /** The actor's keys, or another user's (public information, as in Gitea). */
  async list(actor: ActorDto | null, username: string | undefined, query: ListKeysQuery): Promise<Paginated<PublicKeyDto>> {
    let userId: number;
    if (username === undefined) {
      if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
      userId = actor.id;
    } else {
      const user = await this.users.findUserByName(username);
      if (!user || !canSeeUser(actor, user)) throw DomainError.notFound(`user "${username}" does not exist`);
      userId = user.id;
    }
    const paging = toPaging(query);
    const { rows, total } = await this.keys.list(userId, query.fingerprint || undefined, paging.skip, paging.take);
    return { items: rows.map((r) => toPublicKeyDto(r, this.common.rootUrl, actor)), total };
  }

  /** One of the actor's own keys; anyone else's is NOT_FOUND. */
  async get(actor: ActorDto, id: number): Promise<PublicKeyDto> {
    const row = await this.keys.findById(id);
    if (!row || row.userId !== actor.id) throw DomainError.notFound(`public key ${id} does not exist`);
    return toPublicKeyDto(row, this.common.rootUrl, actor);
  }

  /** Through `/admin/users/{username}/keys/{id}` the key must be that user's (Gitea: 403 otherwise). */
  async delete(actor: ActorDto, id: number, username?: string): Promise<void> {
    const ownerId = username === undefined ? undefined : await this.adminTarget(actor, username);
    const row = await this.keys.findById(id);
    if (!row || (row.userId !== actor.id && !actor.isAdmin)) throw DomainError.notFound(`public key ${id} does not exist`);
    if (ownerId !== undefined && row.userId !== ownerId) throw DomainError.forbidden('You do not have access to this key');
    if (!(await this.keys.delete(id, row.userId))) throw DomainError.notFound(`public key ${id} does not exist`);
  }

  /** SSH authentication: the key the client offered → its owner; records the use (throttled). */
  async resolve(keyBlobBase64: string): Promise<ResolveKeyReply> {
    const parsed = parseKeyBlob(keyBlobBase64);
    if (!parsed) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'invalid public key');
    const row = await this.keys.findByFingerprint(parsed.fingerprint);
    if (!row) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'unknown public key');
    assertCanSignIn(row.user);
    this.usage.record(row.id);
    return {
      keyId: row.id,
      fingerprint: row.fingerprint,
      actor: {
        id: row.user.id,
        login: row.user.name,
        isAdmin: row.user.isAdmin,
        scopes: ['all'],
        hasTwoFactor: row.user.twoFactor !== null,
        via: 'ssh',
      },
    };
  }

  /** `signature` is `ssh-keygen -Y sign -n gitea` over the current verification token (Gitea's `VerifySSHKey`). */
  async verify(actor: ActorDto, body: VerifySshKeyBody): Promise<PublicKeyDto> {
    const row = await this.keys.findById(body.key_id);
    if (!row || row.userId !== actor.id) throw DomainError.notFound(`public key ${body.key_id} does not exist`);
    const tokens = acceptedVerificationTokens(row.user, new Date(this.clock()));
    const results = tokenVariants(tokens).map((t) => verifySshSignature(body.signature, Buffer.from(t), 'gitea', [row.content]));
    if (!results.some((r) => r.ok)) {
      const reason = results.find((r) => r.reason !== 'the signature does not match')?.reason;
      throw DomainError.unprocessable(
        `The provided SSH key, signature and token do not match or token is out of date${reason ? ` (${reason})` : ''}. ` +
          `Provide a valid signature for the token: ${tokens[0]}`,
      );
    }
    return toPublicKeyDto(await this.keys.markVerified(row.id, row.userId), this.common.rootUrl, actor);
  }

  touch(keyId: number): void {
    this.usage.record(keyId);
  }
}
