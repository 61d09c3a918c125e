import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, ErrorCode, toPaging,
  type ActorDto, type CreateGpgKeyBody, type GpgKeyDto, type ListQuery, type Paginated, type VerifyGpgKeyBody,
} from '@cairn/contracts';
import { CLOCK, type Clock } from '../common/clock.js';
import { canSeeUser } from '../common/visibility.js';
import { Transactions } from '../prisma/transactions.js';
import { acceptedVerificationTokens, tokenVariants } from '../keys/verification-token.js';
import { activatedEmails } from '../users/user.mapper.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import { toGpgKeyDto } from './gpg-key.mapper.js';
import { GpgKeyProblem, normaliseKeyId, parseArmoredGpgKeys, verifyTokenSignature } from './gpg-key-rules.js';
import { GpgKeysRepository } from './gpg-keys.repository.js';
import { uniqueViolation } from '@cairn/platform';

const KEY_ID_USED = 'A key with the same id already exists';

/** Gitea's messages, which name the token to sign. */
function badSignature(token: string): DomainError {
  return DomainError.unprocessable(
    `The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${token}`,
  );
}

/** Users' OpenPGP keys (`/user/gpg_keys`), as Gitea's `models/asymkey/gpg_key*.go`. */
@Injectable()
export class GpgKeysService {
  constructor(
    private readonly transactions: Transactions,
    private readonly keys: GpgKeysRepository,
    private readonly users: UsersRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private async self(actor: ActorDto): Promise<UserRow> {
    const user = await this.users.findById(actor.id);
    if (!user) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
    return user;
  }

  /** Unsigned: a uid e-mail must be an activated address of the user; signed: the token's signature must verify. */
  async create(actor: ActorDto, body: CreateGpgKeyBody): Promise<GpgKeyDto> {
    const user = await this.self(actor);
    const tokens = acceptedVerificationTokens(user, new Date(this.clock()));
    let parsed;
    try {
      parsed = await parseArmoredGpgKeys(body.armored_public_key);
    } catch (err) {
      if (err instanceof GpgKeyProblem) throw DomainError.unprocessable(err.message);
      throw err;
    }
    const activated = activatedEmails(user);
    let verified = false;
    if (body.armored_signature) {
      const signed = [];
      for (const k of parsed) {
        if (await verifyTokenSignature(k.key, body.armored_signature, tokenVariants(tokens))) signed.push(k);
      }
      if (signed.length === 0) throw badSignature(tokens[0]);
      // Gitea keeps only the key that signed.
      parsed = signed.slice(0, 1);
      verified = true;
    } else if (!parsed.some((k) => k.uidEmails.some((e) => activated.includes(e)))) {
      throw DomainError.notFound(
        `None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${tokens[0]}`,
      );
    }
    const ids = parsed.flatMap((k) => [k.keyId, ...k.subkeys.map((s) => s.keyId)]);
    if (new Set(ids).size !== ids.length) throw DomainError.unprocessable(KEY_ID_USED);
    try {
      const rows = await this.transactions.run(async (tx) => {
        if ((await this.keys.usedKeyIds(ids, tx)).length > 0) throw DomainError.unprocessable(KEY_ID_USED);
        return this.keys.create(tx, user.id, body.armored_public_key, parsed, verified);
      });
      return toGpgKeyDto(rows[0], activated);
    } catch (err) {
      if (uniqueViolation(err) !== null) throw DomainError.unprocessable(KEY_ID_USED);
      throw err;
    }
  }

  /** The actor's keys, or another user's (public, as in Gitea). */
  async list(actor: ActorDto | null, username: string | undefined, query: ListQuery): Promise<Paginated<GpgKeyDto>> {
    let user: UserRow | null;
    if (username === undefined) {
      if (!actor) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'token is required');
      user = await this.users.findById(actor.id);
    } else {
      user = await this.users.findUserByName(username);
      if (!user || !canSeeUser(actor, user)) throw DomainError.notFound(`user "${username}" does not exist`);
    }
    if (!user) throw DomainError.notFound('user does not exist');
    const paging = toPaging(query);
    const { rows, total } = await this.keys.list(user.id, paging.skip, paging.take);
    const activated = activatedEmails(user);
    return { items: rows.map((r) => toGpgKeyDto(r, activated)), total };
  }

  /** One of the actor's own keys; anyone else's does not exist. */
  async get(actor: ActorDto, id: number): Promise<GpgKeyDto> {
    const row = await this.keys.findById(id);
    if (!row || row.userId !== actor.id) throw DomainError.notFound(`GPG key ${id} does not exist`);
    return toGpgKeyDto(row, activatedEmails(await this.self(actor)));
  }

  /** The owner or a site admin deletes; someone else's key is 403; a missing key is done already (Gitea: 204). */
  async delete(actor: ActorDto, id: number): Promise<void> {
    const row = await this.keys.findById(id);
    if (!row) return;
    if (row.userId !== actor.id && !actor.isAdmin) throw DomainError.forbidden('You do not have access to this key');
    await this.keys.delete(id, row.userId);
  }

  async verify(actor: ActorDto, body: VerifyGpgKeyBody): Promise<GpgKeyDto> {
    const user = await this.self(actor);
    const keyId = normaliseKeyId(body.key_id);
    if (!keyId) throw DomainError.notFound(`GPG key "${body.key_id}" does not exist`);
    const row = await this.keys.findByKeyId(user.id, keyId);
    if (!row) throw DomainError.notFound(`GPG key ${keyId} does not exist`);
    const tokens = acceptedVerificationTokens(user, new Date(this.clock()));
    const [stored] = await parseArmoredGpgKeys(row.armored).then((ks) => ks.filter((k) => k.keyId === keyId));
    const signer = stored ? await verifyTokenSignature(stored.key, body.armored_signature, tokenVariants(tokens)) : null;
    if (!signer) throw badSignature(tokens[0]);
    await this.keys.markVerified(row.id, user.id);
    const updated = await this.keys.findById(row.id);
    if (!updated) throw DomainError.notFound(`GPG key ${keyId} does not exist`);
    return toGpgKeyDto(updated, activatedEmails(user));
  }

  async token(actor: ActorDto): Promise<string> {
    return acceptedVerificationTokens(await this.self(actor), new Date(this.clock()))[0];
  }
}
