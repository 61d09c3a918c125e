import { Injectable } from '@nestjs/common';
import type { AdminUserSort } from '@cairn/contracts';
import type { Prisma, User } from '../generated/prisma/client.js';
import { PrismaService, type Db } from '../prisma/prisma.service.js';

export type UserRow = User;
export type UserWithTwoFactor = User & { twoFactor: { id: number } | null };

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string;
  fullName?: string;
  loginName?: string;
  sourceId?: number;
  mustChangePassword: boolean;
  isAdmin: boolean;
  restricted?: boolean;
  visibility?: string;
  createdAt?: Date;
}

export interface UserChanges {
  email?: string;
  fullName?: string;
  loginName?: string;
  sourceId?: number;
  passwordHash?: string;
  mustChangePassword?: boolean;
  website?: string;
  location?: string;
  description?: string;
  language?: string;
  hideEmail?: boolean;
  hideActivity?: boolean;
  diffViewStyle?: string;
  theme?: string;
  isActive?: boolean;
  isAdmin?: boolean;
  allowGitHook?: boolean;
  allowImportLocal?: boolean;
  maxRepoCreation?: number;
  prohibitLogin?: boolean;
  allowCreateOrganization?: boolean;
  restricted?: boolean;
  visibility?: string;
}

export interface UserSearch {
  q?: string;
  uid?: number;
  /** Visibilities anyone may see; rows of `selfId` are visible whatever their visibility. */
  visibilities: string[];
  selfId?: number;
  matchEmail: boolean;
  skip: number;
  take: number;
}

const withTwoFactor = { twoFactor: { select: { id: true } } } as const;

export interface AdminUserFilter {
  q?: string;
  sourceId?: number;
  loginName?: string;
  visibility?: string;
  isActive?: boolean;
  isAdmin?: boolean;
  isRestricted?: boolean;
  isTwoFactorEnabled?: boolean;
  isProhibitLogin?: boolean;
  sort: AdminUserSort;
  skip: number;
  take: number;
}

const ADMIN_SORTS: Record<AdminUserSort, Prisma.UserOrderByWithRelationInput> = {
  oldest: { createdAt: 'asc' },
  newest: { createdAt: 'desc' },
  alphabetically: { lowerName: 'asc' },
  reversealphabetically: { lowerName: 'desc' },
  recentupdate: { updatedAt: 'desc' },
  leastupdate: { updatedAt: 'asc' },
};

@Injectable()
export class UsersRepository {
  constructor(private readonly prisma: PrismaService) {}

  findById(id: number, db: Db = this.prisma): Promise<UserWithTwoFactor | null> {
    return db.user.findUnique({ where: { id }, include: withTwoFactor });
  }

  async findByName(name: string, db: Db = this.prisma): Promise<UserWithTwoFactor | null> {
    // PostgreSQL text cannot hold NUL: such a name names nobody (asking would be a 500 from the driver).
    if (name.includes('\0')) return null;
    return db.user.findUnique({ where: { lowerName: name.toLowerCase() }, include: withTwoFactor });
  }

  async findUserByName(name: string, db: Db = this.prisma): Promise<UserWithTwoFactor | null> {
    const row = await this.findByName(name, db);
    return row?.type === 'user' ? row : null;
  }

  /** A user by login name or primary e-mail (Gitea accepts both for sign-in). */
  async findUserForLogin(login: string): Promise<UserWithTwoFactor | null> {
    if (login.includes('\0')) return null; // as findByName
    const lower = login.toLowerCase();
    const row = lower.includes('@')
      ? await this.prisma.user.findUnique({ where: { lowerEmail: lower }, include: withTwoFactor })
      : await this.findByName(lower);
    return row?.type === 'user' ? row : null;
  }

  async nameTaken(name: string, db: Db = this.prisma): Promise<boolean> {
    return (await db.user.count({ where: { lowerName: name.toLowerCase() } })) > 0;
  }

  /** Is the address any account's, primary or additional (`exceptId`'s own do not count)? */
  async emailTaken(email: string, exceptId?: number, db: Db = this.prisma): Promise<boolean> {
    const lowerEmail = email.toLowerCase();
    const where: Prisma.UserWhereInput = { OR: [{ lowerEmail }, { emails: { some: { lowerEmail } } }] };
    if (exceptId !== undefined) where.id = { not: exceptId };
    return (await db.user.count({ where })) > 0;
  }

  create(db: Db, u: NewUser): Promise<UserWithTwoFactor> {
    return db.user.create({
      data: {
        type: 'user',
        name: u.name,
        lowerName: u.name.toLowerCase(),
        email: u.email,
        lowerEmail: u.email.toLowerCase(),
        passwordHash: u.passwordHash,
        fullName: u.fullName ?? '',
        loginName: u.loginName ?? '',
        sourceId: u.sourceId ?? 0,
        mustChangePassword: u.mustChangePassword,
        isAdmin: u.isAdmin,
        restricted: u.restricted ?? false,
        visibility: u.visibility ?? 'public',
        ...(u.createdAt ? { createdAt: u.createdAt } : {}),
      },
      include: withTwoFactor,
    });
  }

  update(db: Db, id: number, c: UserChanges): Promise<UserWithTwoFactor> {
    const data: Prisma.UserUpdateInput = { ...c };
    if (c.email !== undefined) data.lowerEmail = c.email.toLowerCase();
    return db.user.update({ where: { id }, data, include: withTwoFactor });
  }

  async delete(db: Db, id: number): Promise<void> {
    await db.user.delete({ where: { id } });
  }

  async countUsers(db: Db = this.prisma): Promise<number> {
    return db.user.count({ where: { type: 'user' } });
  }

  async countAdmins(db: Db = this.prisma): Promise<number> {
    return db.user.count({ where: { type: 'user', isAdmin: true } });
  }

  async search(s: UserSearch): Promise<{ rows: UserRow[]; total: number }> {
    const visible: Prisma.UserWhereInput[] = [{ visibility: { in: s.visibilities } }];
    if (s.selfId !== undefined) visible.push({ id: s.selfId });
    const and: Prisma.UserWhereInput[] = [{ type: 'user' }, { OR: visible }];
    if (s.uid !== undefined && s.uid > 0) and.push({ id: s.uid });
    if (s.q) {
      const q = s.q.toLowerCase();
      const match: Prisma.UserWhereInput[] = [
        { lowerName: { contains: q } },
        { fullName: { contains: s.q, mode: 'insensitive' } },
      ];
      if (s.matchEmail) match.push({ lowerEmail: { contains: q } });
      and.push({ OR: match });
    }
    const where: Prisma.UserWhereInput = { AND: and };
    const [rows, total] = await Promise.all([
      this.prisma.user.findMany({ where, orderBy: { id: 'asc' }, skip: s.skip, take: s.take }),
      this.prisma.user.count({ where }),
    ]);
    return { rows, total };
  }

  /** `GET /admin/users`: every user account (organizations aside), filtered and sorted as Gitea's admin search. */
  async adminSearch(f: AdminUserFilter): Promise<{ rows: UserRow[]; total: number }> {
    const and: Prisma.UserWhereInput[] = [{ type: 'user' }];
    if (f.q) {
      const q = f.q.toLowerCase();
      and.push({ OR: [{ lowerName: { contains: q } }, { fullName: { contains: f.q, mode: 'insensitive' } }, { lowerEmail: { contains: q } }] });
    }
    // Only the local source exists: any other source id matches nobody.
    if (f.sourceId !== undefined && f.sourceId > 0) and.push({ id: -1 });
    if (f.loginName) and.push({ loginName: f.loginName });
    if (f.visibility) and.push({ visibility: f.visibility });
    if (f.isActive !== undefined) and.push({ isActive: f.isActive });
    if (f.isAdmin !== undefined) and.push({ isAdmin: f.isAdmin });
    if (f.isRestricted !== undefined) and.push({ restricted: f.isRestricted });
    if (f.isProhibitLogin !== undefined) and.push({ prohibitLogin: f.isProhibitLogin });
    if (f.isTwoFactorEnabled !== undefined) and.push({ twoFactor: f.isTwoFactorEnabled ? { isNot: null } : { is: null } });
    const where: Prisma.UserWhereInput = { AND: and };
    const [rows, total] = await Promise.all([
      this.prisma.user.findMany({ where, orderBy: [ADMIN_SORTS[f.sort], { id: 'asc' }], skip: f.skip, take: f.take }),
      this.prisma.user.count({ where }),
    ]);
    return { rows, total };
  }

  lookup(ids: number[], emails: string[], logins: string[]): Promise<UserRow[]> {
    const or: Prisma.UserWhereInput[] = [];
    if (ids.length) or.push({ id: { in: ids } });
    if (emails.length) or.push({ lowerEmail: { in: emails.map((e) => e.toLowerCase()) } });
    if (logins.length) or.push({ lowerName: { in: logins.map((l) => l.toLowerCase()) } });
    if (!or.length) return Promise.resolve([]);
    return this.prisma.user.findMany({ where: { OR: or }, orderBy: { id: 'asc' } });
  }
}
