import { Injectable } from '@nestjs/common';
import { Prisma, type AccessToken } from '../generated/prisma/client.js';
import { IDENTITY_SCHEMA, PrismaService, type Db } from '../prisma/prisma.service.js';
import type { UserWithTwoFactor } from '../users/users.repository.js';
import type { UserTokenLinks } from '../users/account-links.js';

export type TokenRow = AccessToken;

export interface NewToken {
  userId: number;
  name: string;
  tokenHash: string;
  tokenLastEight: string;
  scopes: string[];
}

const ACCESS_TOKENS = Prisma.raw(`"${IDENTITY_SCHEMA}"."access_tokens"`);

@Injectable()
export class TokensRepository implements UserTokenLinks {
  constructor(private readonly prisma: PrismaService) {}

  findByHash(tokenHash: string): Promise<(TokenRow & { user: UserWithTwoFactor }) | null> {
    return this.prisma.accessToken.findUnique({
      where: { tokenHash },
      include: { user: { include: { twoFactor: { select: { id: true } } } } },
    });
  }

  findById(id: number): Promise<(TokenRow & { user: UserWithTwoFactor }) | null> {
    return this.prisma.accessToken.findUnique({
      where: { id },
      include: { user: { include: { twoFactor: { select: { id: true } } } } },
    });
  }

  create(db: Db, t: NewToken): Promise<TokenRow> {
    return db.accessToken.create({ data: t });
  }

  async nameExists(userId: number, name: string): Promise<boolean> {
    return (await this.prisma.accessToken.count({ where: { userId, name } })) > 0;
  }

  async list(userId: number, skip: number, take: number): Promise<{ rows: TokenRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.prisma.accessToken.findMany({ where: { userId }, orderBy: { id: 'desc' }, skip, take }),
      this.prisma.accessToken.count({ where: { userId } }),
    ]);
    return { rows, total };
  }

  findForUser(userId: number, id: number, db: Db = this.prisma): Promise<TokenRow | null> {
    return db.accessToken.findFirst({ where: { id, userId } });
  }

  findByNameForUser(userId: number, name: string, db: Db = this.prisma): Promise<TokenRow[]> {
    return db.accessToken.findMany({ where: { userId, name } });
  }

  async delete(db: Db, id: number): Promise<boolean> {
    return (await db.accessToken.deleteMany({ where: { id } })).count > 0;
  }

  async idsOfUser(userId: number, db: Db = this.prisma): Promise<number[]> {
    return (await db.accessToken.findMany({ where: { userId }, select: { id: true } })).map((t) => t.id);
  }

  /** One conditional UPDATE: concurrent replicas write at most once per window between them. */
  async touch(id: number, intervalMs: number): Promise<boolean> {
    const seconds = intervalMs / 1000;
    const n = await this.prisma.$executeRaw`
      UPDATE ${ACCESS_TOKENS} SET last_used_at = now()
      WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${seconds}::double precision))`;
    return n > 0;
  }
}
