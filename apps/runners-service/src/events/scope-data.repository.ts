import { Injectable } from '@nestjs/common';
import { uniqueViolation } from '@cairn/platform';
import { PrismaService } from '../prisma/prisma.service.js';
import type { ScopeKey } from '../actions/actions-scope.js';

export interface CleanupCounts {
  runners: number;
  registrationTokens: number;
  variables: number;
  secrets: number;
}

@Injectable()
export class ScopeDataRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Removes the scope's data and records the event as consumed, in one transaction; null when consumed before. */
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
