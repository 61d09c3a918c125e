import { Injectable } from '@nestjs/common';
import {
  DomainError, IdentityEvents, MAX_INT32, TOKEN_SCOPES, toPaging,
  type AccessTokenDto, type ActorDto, type CreateAccessTokenBody, type ListQuery, type Paginated,
} from '@cairn/contracts';
import { EventPublisher } from '../common/event-publisher.js';
import { Transactions } from '../prisma/transactions.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import { toAccessTokenDto } from './token.mapper.js';
import { generateAccessToken, hashAccessToken } from './token-secret.js';
import { TokensRepository } from './tokens.repository.js';
import { uniqueViolation } from '@cairn/platform';

const VALID_SCOPES = new Set(TOKEN_SCOPES);

/** Gitea normalises scope lists: entries may themselves be comma-separated; duplicates collapse. */
export function normaliseScopes(given: string[] | undefined): string[] {
  const out: string[] = [];
  for (const entry of given ?? []) {
    for (const s of entry.split(',')) {
      const scope = s.trim();
      if (!scope) continue;
      if (!VALID_SCOPES.has(scope)) throw DomainError.invalid(`invalid access token scope: ${scope}`);
      if (!out.includes(scope)) out.push(scope);
    }
  }
  if (out.length === 0) throw DomainError.invalid('access token must have a scope');
  return out;
}

@Injectable()
export class TokensService {
  constructor(
    private readonly transactions: Transactions,
    private readonly tokens: TokensRepository,
    private readonly users: UsersRepository,
    private readonly events: EventPublisher,
  ) {}

  private async contextUser(actor: ActorDto, username: string): Promise<UserRow> {
    const user = await this.users.findUserByName(username);
    if (!user) throw DomainError.notFound(`user "${username}" does not exist`);
    if (!actor.isAdmin && actor.id !== user.id) {
      throw DomainError.forbidden('doer should be the site admin or be same as the contextUser');
    }
    return user;
  }

  async create(actor: ActorDto, username: string, body: CreateAccessTokenBody): Promise<AccessTokenDto> {
    const user = await this.contextUser(actor, username);
    const scopes = normaliseScopes(body.scopes);
    const name = body.name.trim();
    if (!name) throw DomainError.unprocessable('access token name is required');
    if (await this.tokens.nameExists(user.id, name)) {
      throw DomainError.invalid('access token name has been used already');
    }
    const secret = generateAccessToken();
    try {
      const row = await this.transactions.run((tx) => this.tokens.create(tx, {
        userId: user.id,
        name,
        tokenHash: hashAccessToken(secret),
        tokenLastEight: secret.slice(-8),
        scopes,
      }));
      return toAccessTokenDto(row, secret);
    } catch (err) {
      if (uniqueViolation(err)?.includes('name')) throw DomainError.invalid('access token name has been used already');
      throw err;
    }
  }

  async list(actor: ActorDto, username: string, query: ListQuery): Promise<Paginated<AccessTokenDto>> {
    const user = await this.contextUser(actor, username);
    const paging = toPaging(query);
    const { rows, total } = await this.tokens.list(user.id, paging.skip, paging.take);
    return { items: rows.map((r) => toAccessTokenDto(r)), total };
  }

  /** Deletes by numeric id or by name (Gitea: a name matching several tokens is ambiguous → 422). */
  async delete(actor: ActorDto, username: string, token: string): Promise<void> {
    const user = await this.contextUser(actor, username);
    const asId = /^\d+$/.test(token.trim()) ? Number(token.trim()) : 0;
    // Ids are 32-bit in the database: a larger number names no token (asking Prisma would fail, not miss).
    if (asId > MAX_INT32) throw DomainError.notFound(`access token ${token.trim()} does not exist`);
    await this.transactions.run(async (tx) => {
      let id: number;
      if (asId > 0) {
        const row = await this.tokens.findForUser(user.id, asId, tx);
        if (!row) throw DomainError.notFound(`access token ${asId} does not exist`);
        id = row.id;
      } else {
        const rows = await this.tokens.findByNameForUser(user.id, token, tx);
        if (rows.length === 0) throw DomainError.notFound(`access token "${token}" does not exist`);
        if (rows.length > 1) throw DomainError.unprocessable(`multiple matches for token name '${token}'`);
        id = rows[0].id;
      }
      if (!(await this.tokens.delete(tx, id))) throw DomainError.notFound(`access token ${id} does not exist`);
      await this.events.record(tx, IdentityEvents.tokenRevoked, { tokenId: id, userId: user.id });
    });
    this.events.kick();
  }
}
