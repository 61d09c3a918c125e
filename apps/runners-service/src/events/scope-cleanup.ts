import { Injectable } from '@nestjs/common';
import { deletedAccountOf, deletedRepositoryIdOf, type DomainEvent } from '@cairn/contracts';
import type { ScopeKey } from '../actions/actions-scope.js';
import { PrismaService, type Tx } from '../prisma/prisma.service.js';
import { uniqueViolation } from '@cairn/platform';

/** The scope whose Actions data a deletion event removes, or null for events this service does not act on. */
export function deletedScope(event: DomainEvent): ScopeKey | null {
  const ownerId = deletedAccountOf(event)?.id;
  if (ownerId !== undefined) return { ownerId, repoId: 0 };
  const repoId = deletedRepositoryIdOf(event);
  return repoId === null ? null : { ownerId: 0, repoId };
}

/** What one deletion removed. */
export interface CleanupCounts {
  runners: number;
  registrationTokens: number;
  variables: number;
  secrets: number;
}

/**
 * Removes everything of a deleted user, organization or repository — runners (with their tasks), registration
 * tokens, variables and secrets — in one transaction with the event's id, so a redelivered event does nothing twice.
 */
@Injectable()
export class ScopeCleanup {
  constructor(private readonly prisma: PrismaService) {}

  /** Null when the event was handled before (or is not a deletion this service acts on). */
  async handle(event: DomainEvent): Promise<CleanupCounts | null> {
    const scope = deletedScope(event);
    if (!scope) return null;
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.consumedEvent.create({ data: { id: event.id, subject: event.type } });
        return this.removeScope(tx, scope);
      });
    } catch (err) {
      if (uniqueViolation(err) !== null) return null;
      throw err;
    }
  }

  private async removeScope(tx: Tx, where: ScopeKey): Promise<CleanupCounts> {
    const runners = await tx.runner.deleteMany({ where });
    const registrationTokens = await tx.runnerRegistrationToken.deleteMany({ where });
    const variables = await tx.variable.deleteMany({ where });
    const secrets = await tx.secret.deleteMany({ where });
    return {
      runners: runners.count,
      registrationTokens: registrationTokens.count,
      variables: variables.count,
      secrets: secrets.count,
    };
  }
}
