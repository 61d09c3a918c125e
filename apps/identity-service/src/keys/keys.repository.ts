import { Injectable } from '@nestjs/common';
import { Prisma, type PublicKey } from '../generated/prisma/client.js';
import { IDENTITY_SCHEMA, PrismaService, type Db } from '../prisma/prisma.service.js';
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

/** Every signing-key change bumps `users.keys_version` in its transaction: verification results are cached by it. */
export async function bumpKeysVersion(db: Db, userId: number): Promise<void> {
  await db.user.update({ where: { id: userId }, data: { keysVersion: { increment: 1 } } });
}

const PUBLIC_KEYS = Prisma.raw(`"${IDENTITY_SCHEMA}"."public_keys"`);

@Injectable()
export class KeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(k: NewKey): Promise<KeyWithUser> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.publicKey.create({ data: k, include: { user: true } });
      await bumpKeysVersion(tx, k.userId);
      return row;
    });
  }

  markVerified(id: number, userId: number): Promise<KeyWithUser> {
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.publicKey.update({ where: { id }, data: { verified: true }, include: { user: true } });
      await bumpKeysVersion(tx, userId);
      return row;
    });
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

  delete(id: number, userId: number): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const n = (await tx.publicKey.deleteMany({ where: { id } })).count;
      if (n > 0) await bumpKeysVersion(tx, userId);
      return n > 0;
    });
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
