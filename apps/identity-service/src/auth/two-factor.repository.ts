import { Injectable } from '@nestjs/common';
import type { PendingTwoFactor, TwoFactor } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';

export type TwoFactorRow = TwoFactor;
export type PendingTwoFactorRow = PendingTwoFactor;

@Injectable()
export class TwoFactorRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(userId: number): Promise<TwoFactorRow | null> {
    return this.prisma.twoFactor.findUnique({ where: { userId } });
  }

  findPending(userId: number): Promise<PendingTwoFactorRow | null> {
    return this.prisma.pendingTwoFactor.findUnique({ where: { userId } });
  }

  startPending(userId: number, secretEncrypted: string): Promise<PendingTwoFactorRow> {
    return this.prisma.pendingTwoFactor.upsert({
      where: { userId },
      create: { userId, secretEncrypted },
      update: { secretEncrypted, createdAt: new Date() },
    });
  }

  /** False when the pending enrolment is gone (confirmed or removed meanwhile). */
  activate(pending: PendingTwoFactorRow, scratchTokenHash: string, lastUsedStep: number): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.pendingTwoFactor.deleteMany({
        where: { userId: pending.userId, secretEncrypted: pending.secretEncrypted },
      });
      if (count === 0) return false;
      await tx.twoFactor.create({
        data: { userId: pending.userId, secretEncrypted: pending.secretEncrypted, scratchTokenHash, lastUsedStep },
      });
      return true;
    });
  }

  /** One conditional UPDATE: of two concurrent uses of the same code exactly one wins. */
  async claimStep(userId: number, step: number): Promise<boolean> {
    const { count } = await this.prisma.twoFactor.updateMany({
      where: { userId, OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: step } }] },
      data: { lastUsedStep: step },
    });
    return count === 1;
  }

  /** Replaces the scratch token's hash if it is `expected`, atomically: true for the one caller that used it. */
  async consumeScratch(userId: number, expected: string, replacement: string): Promise<boolean> {
    const { count } = await this.prisma.twoFactor.updateMany({
      where: { userId, scratchTokenHash: expected },
      data: { scratchTokenHash: replacement },
    });
    return count === 1;
  }

  async delete(userId: number): Promise<boolean> {
    const [active, pending] = await this.prisma.$transaction([
      this.prisma.twoFactor.deleteMany({ where: { userId } }),
      this.prisma.pendingTwoFactor.deleteMany({ where: { userId } }),
    ]);
    return active.count + pending.count > 0;
  }
}
