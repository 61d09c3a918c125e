import { Injectable } from '@nestjs/common';
import type { GpgKey } from '../generated/prisma/client.js';
import { bumpKeysVersion } from '../keys/keys.repository.js';
import { PrismaService, type Db } from '../prisma/prisma.service.js';
import type { ParsedGpgKey, ParsedGpgSubkey } from './gpg-key-rules.js';

export type GpgKeyWithSubkeys = GpgKey & { subkeys: GpgKey[] };

const withSubkeys = { subkeys: { orderBy: { id: 'asc' } } } as const;

function row(k: ParsedGpgSubkey) {
  return {
    keyId: k.keyId,
    publicKey: k.publicKey,
    createdAt: k.createdAt,
    expiresAt: k.expiresAt,
    canSign: k.canSign,
    canEncryptComms: k.canEncrypt,
    canEncryptStorage: k.canEncrypt,
    canCertify: k.canSign,
  };
}

@Injectable()
export class GpgKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  async usedKeyIds(keyIds: string[], db: Db = this.prisma): Promise<string[]> {
    const rows = await db.gpgKey.findMany({ where: { keyId: { in: keyIds } }, select: { keyId: true } });
    return rows.map((r) => r.keyId);
  }

  /** Stores the keys with their subkeys and bumps the owner's keys version, in the caller's transaction. */
  async create(tx: Db, userId: number, armored: string, keys: ParsedGpgKey[], verified: boolean): Promise<GpgKeyWithSubkeys[]> {
    const out: GpgKeyWithSubkeys[] = [];
    for (const k of keys) {
      out.push(
        await tx.gpgKey.create({
          data: {
            ...row(k),
            userId,
            armored,
            uidEmails: k.uidEmails,
            verified,
            subkeys: { create: k.subkeys.map((s) => ({ ...row(s), userId, uidEmails: [] })) },
          },
          include: withSubkeys,
        }),
      );
    }
    await bumpKeysVersion(tx, userId);
    return out;
  }

  findById(id: number): Promise<GpgKeyWithSubkeys | null> {
    return this.prisma.gpgKey.findFirst({ where: { id, primaryId: null }, include: withSubkeys });
  }

  findByKeyId(userId: number, keyId: string): Promise<GpgKeyWithSubkeys | null> {
    return this.prisma.gpgKey.findFirst({ where: { userId, keyId, primaryId: null }, include: withSubkeys });
  }

  async list(userId: number, skip: number, take: number): Promise<{ rows: GpgKeyWithSubkeys[]; total: number }> {
    const where = { userId, primaryId: null };
    const [rows, total] = await Promise.all([
      this.prisma.gpgKey.findMany({ where, include: withSubkeys, orderBy: { id: 'asc' }, skip, take }),
      this.prisma.gpgKey.count({ where }),
    ]);
    return { rows, total };
  }

  delete(id: number, userId: number): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      const n = (await tx.gpgKey.deleteMany({ where: { id, primaryId: null } })).count;
      if (n > 0) await bumpKeysVersion(tx, userId);
      return n > 0;
    });
  }

  markVerified(id: number, userId: number): Promise<void> {
    return this.prisma.$transaction(async (tx) => {
      await tx.gpgKey.update({ where: { id }, data: { verified: true } });
      await bumpKeysVersion(tx, userId);
    });
  }
}
