import { Injectable } from '@nestjs/common';
import { Prisma, type PublicKey } from '../generated/prisma/client.js';
import { IDENTITY_SCHEMA, PrismaService } from '../prisma/prisma.service.js';
import type { UserRow, UserWithTwoFactor } from '../users/users.repository.js';

export type KeyRow = PublicKey;
export type KeyWithUser = PublicKey & { user: UserRow };

export interface NewKey {
  userId: number;
  title: string;
  content: string;
  fingerprint: string;
  algorithm: string;
  bits: number;
}

const PUBLIC_KEYS = Prisma.raw(`"${IDENTITY_SCHEMA}"."public_keys"`);

@Injectable()
export class KeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(k: NewKey): Promise<KeyWithUser> {
    return this.prisma.publicKey.create({ data: k, include: { user: true } });
  }

  async fingerprintExists(fingerprint: string): Promise<boolean> {
    return (await this.prisma.publicKey.count({ where: { fingerprint } })) > 0;
  }

  async titleExists(userId: number, title: string): Promise<boolean> {
    return (await this.prisma.publicKey.count({ where: { userId, title } })) > 0;
  }

  findById(id: number): Promise<KeyWithUser | null> {
    return this.prisma.publicKey.findUnique({ where: { id }, include: { user: true } });
  }

  findByFingerprint(fingerprint: string): Promise<(KeyRow & { user: UserWithTwoFactor }) | null> {
    return this.prisma.publicKey.findUnique({
      where: { fingerprint },
      include: { user: { include: { twoFactor: { select: { id: true } } } } },
    });
  }

  async list(userId: number, fingerprint: string | undefined, skip: number, take: number): Promise<{ rows: KeyWithUser[]; total: number }> {
    const where: Prisma.PublicKeyWhereInput = { userId, ...(fingerprint ? { fingerprint } : {}) };
    const [rows, total] = await Promise.all([
      this.prisma.publicKey.findMany({ where, include: { user: true }, orderBy: { id: 'asc' }, skip, take }),
      this.prisma.publicKey.count({ where }),
    ]);
    return { rows, total };
  }

  async delete(id: number): Promise<boolean> {
    return (await this.prisma.publicKey.deleteMany({ where: { id } })).count > 0;
  }

  /** Same conditional write as tokens: at most one per window across replicas. */
  async touch(id: number, intervalMs: number): Promise<boolean> {
    const seconds = intervalMs / 1000;
    const n = await this.prisma.$executeRaw`
      UPDATE ${PUBLIC_KEYS} SET last_used_at = now()
      WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${seconds}::double precision))`;
    return n > 0;
  }
}
