import { Injectable } from '@nestjs/common';
import { uniqueViolation } from '@cairn/platform';
import { PrismaService } from '../prisma/prisma.service.js';
import type { ScopeKey } from '../actions/actions-scope.js';

/** What one deletion removed. */
export interface CleanupCounts {
  runners: number;
  registrationTokens: number;
  variables: number;
  secrets: number;
}

/** Everything of one scope across the service's tables, removed once per deletion event. */
@Injectable()
export class ScopeDataRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Removes the scope's runners (with their tasks), registration tokens, variables and secrets in one transaction
   * that records the event as consumed; null when it was consumed before.
   */
  async removeOnce(eventId: string, subject: string, where: ScopeKey): Promise<CleanupCounts | null> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.consumedEvent.create({ data: { id: eventId, subject } });
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
      });
    } catch (err) {
      if (uniqueViolation(err) !== null) return null;
      throw err;
    }
  }
}
