import { Inject, Injectable } from '@nestjs/common';
import type { ActionsScopeDto, ActorDto, RegistrationTokenDto } from '@cairn/contracts';
import type { SecretBox } from '@cairn/platform';
import { ActionsScopeResolver, type ScopeKey } from '../actions/actions-scope.js';
import type { Tx } from '../prisma/prisma.service.js';
import { Transactions } from '../prisma/transactions.js';
import { RegistrationTokensRepository } from './registration-tokens.repository.js';
import { REGISTRATION_TOKEN_BOX } from './registration-token-box.js';
import { hashRunnerToken, newRunnerToken } from './runner-token.js';

// Gitea's rule: the scope's newest token is answered while active, else a new one replaces every older one.
// Registering does not use a token up; `reset` (Gitea has it in its web UI) always makes a new one.
@Injectable()
export class RegistrationTokensService {
  constructor(
    private readonly tokens: RegistrationTokensRepository,
    private readonly transactions: Transactions,
    private readonly scopes: ActionsScopeResolver,
    @Inject(REGISTRATION_TOKEN_BOX) private readonly box: SecretBox,
  ) {}

  async get(actor: ActorDto | null, scope: ActionsScopeDto, reset = false): Promise<RegistrationTokenDto> {
    const key = await this.scopes.resolve(actor, scope);
    return this.transactions.run(async (tx) => {
      await this.tokens.lockScope(tx, key);
      if (!reset) {
        const newest = await this.tokens.newest(tx, key);
        if (newest?.isActive) return { token: this.box.open(newest.tokenSealed) };
      }
      return { token: await this.issue(tx, key) };
    });
  }

  private async issue(tx: Tx, key: ScopeKey): Promise<string> {
    const token = newRunnerToken();
    await this.tokens.replace(tx, key, hashRunnerToken(token), this.box.seal(token));
    return token;
  }
}
