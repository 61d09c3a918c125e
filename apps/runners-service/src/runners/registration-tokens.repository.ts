import { Injectable } from '@nestjs/common';
import type { RunnerRegistrationToken } from '../generated/prisma/client.js';
import { PrismaService, type Tx } from '../prisma/prisma.service.js';
import type { ScopeKey } from '../actions/actions-scope.js';

/** Registration tokens of a scope: hashed for Register's lookup, sealed to be shown again. */
@Injectable()
export class RegistrationTokensRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** One writer per scope until the transaction ends: two first calls must not make two tokens. */
  async lockScope(tx: Tx, key: ScopeKey): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('runner-registration-token'), hashtext(${`${key.ownerId}:${key.repoId}`}))`;
  }

  newest(tx: Tx, key: ScopeKey): Promise<RunnerRegistrationToken | null> {
    return tx.runnerRegistrationToken.findFirst({ where: key, orderBy: { id: 'desc' } });
  }

  async replace(tx: Tx, key: ScopeKey, tokenHash: string, tokenSealed: string): Promise<void> {
    await tx.runnerRegistrationToken.updateMany({ where: { ...key, isActive: true }, data: { isActive: false } });
    await tx.runnerRegistrationToken.create({ data: { ...key, tokenHash, tokenSealed, isActive: true } });
  }

  findByHash(tokenHash: string): Promise<RunnerRegistrationToken | null> {
    return this.prisma.runnerRegistrationToken.findUnique({ where: { tokenHash } });
  }
}
