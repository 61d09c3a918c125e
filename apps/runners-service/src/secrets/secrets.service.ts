import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError, toPaging, type ActionsScopeDto, type ActorDto, type CreateOrUpdateSecretBody, type ListQuery,
  type Paginated, type SecretDto, type SecretPutReply, toApiTime
} from '@cairn/contracts';
import type { SecretBox } from '@cairn/platform';
import { ActionsScopeResolver, type ScopeKey } from '../actions/actions-scope.js';
import { ACTIONS_DATA_MAX, actionsName, cutDescription, lookupName } from '../actions/actions-names.js';
import type { Secret } from '../generated/prisma/client.js';
import { SecretsRepository } from './secrets.repository.js';
import { ACTIONS_SECRET_BOX } from './secret-box.js';
import { uniqueViolation } from '@cairn/platform';

const toDto = (s: Secret): SecretDto => ({ name: s.name, description: s.description, created_at: toApiTime(s.createdAt) });

/** Values are sealed before the database and never leave this service; no instance level, as in Gitea. */
@Injectable()
export class SecretsService {
  constructor(
    private readonly secrets: SecretsRepository,
    private readonly scopes: ActionsScopeResolver,
    @Inject(ACTIONS_SECRET_BOX) private readonly box: SecretBox,
  ) {}

  async list(actor: ActorDto | null, scope: ActionsScopeDto, query?: ListQuery): Promise<Paginated<SecretDto>> {
    const key = await this.secretScope(actor, scope);
    const { skip, take } = toPaging(query);
    const { rows, total } = await this.secrets.page(key, skip, take);
    return { items: rows.map(toDto), total };
  }

  /** Creates the secret, or replaces the value and description of the existing one (Gitea's PUT). */
  async put(
    actor: ActorDto | null,
    scope: ActionsScopeDto,
    name: string,
    body: CreateOrUpdateSecretBody,
  ): Promise<SecretPutReply> {
    const key = await this.secretScope(actor, scope);
    const stored = actionsName('secret', name);
    if (Buffer.byteLength(body.data, 'utf8') > ACTIONS_DATA_MAX) {
      throw DomainError.invalid(`data too long: a secret's value is at most ${ACTIONS_DATA_MAX} bytes`);
    }
    const change = { dataSealed: this.box.seal(body.data), description: cutDescription(body.description) };
    // Two tries: a concurrent PUT of the same new name makes the create lose; the update then wins.
    for (let attempt = 0; ; attempt++) {
      if (await this.secrets.updateExisting(key, stored, change)) return { created: false };
      try {
        await this.secrets.create(key, stored, change);
        return { created: true };
      } catch (err) {
        if (uniqueViolation(err) === null || attempt > 0) throw err;
      }
    }
  }

  async delete(actor: ActorDto | null, scope: ActionsScopeDto, name: string): Promise<void> {
    const key = await this.secretScope(actor, scope);
    const stored = lookupName(name);
    if (!stored || !(await this.secrets.delete(key, stored))) throw DomainError.notFound('secret not found');
  }

  private async secretScope(actor: ActorDto | null, scope: ActionsScopeDto): Promise<ScopeKey> {
    if (scope.level === 'admin') throw DomainError.invalid('global secrets are not supported');
    return this.scopes.resolve(actor, scope);
  }
}
