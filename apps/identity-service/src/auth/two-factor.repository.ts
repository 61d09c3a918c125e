import { Injectable } from '@nestjs/common';
import type { TwoFactor } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';

export type TwoFactorRow = TwoFactor;

@Injectable()
export class TwoFactorRepository {
  constructor(private readonly prisma: PrismaService) {}

  find(userId: number): Promise<TwoFactorRow | null> {
    return this.prisma.twoFactor.findUnique({ where: { userId } });
  }

  create(userId: number, secretEncrypted: string, scratchTokenHash: string): Promise<TwoFactorRow> {
    return this.prisma.twoFactor.create({ data: { userId, secretEncrypted, scratchTokenHash } });
  }

  async delete(userId: number): Promise<boolean> {
    return (await this.prisma.twoFactor.deleteMany({ where: { userId } })).count > 0;
  }
}
