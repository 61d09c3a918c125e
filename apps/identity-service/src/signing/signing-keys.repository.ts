import { Injectable } from '@nestjs/common';
import type { GpgKeyWithSubkeys } from '../gpg/gpg-keys.repository.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { UserRow } from '../users/users.repository.js';

/** The set-based reads behind `identity.signing.keys` (each one query, whatever the number of committers). */
@Injectable()
export class SigningKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Users (not organizations) whose primary e-mail is one of `emails` or whose name is one of `lowerNames`. */
  usersByAddress(emails: string[], lowerNames: string[]): Promise<UserRow[]> {
    if (!emails.length && !lowerNames.length) return Promise.resolve([]);
    return this.prisma.user.findMany({
      where: { type: 'user', OR: [{ lowerEmail: { in: emails } }, { lowerName: { in: lowerNames } }] },
      orderBy: { id: 'asc' },
    });
  }

  usersById(ids: number[]): Promise<UserRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.prisma.user.findMany({ where: { id: { in: ids }, type: 'user' } });
  }

  gpgKeyOwners(keyIds: string[]): Promise<{ keyId: string; userId: number }[]> {
    if (!keyIds.length) return Promise.resolve([]);
    return this.prisma.gpgKey.findMany({ where: { keyId: { in: keyIds } }, select: { keyId: true, userId: true } });
  }

  verifiedSshKeys(userIds: number[]): Promise<{ id: number; userId: number; fingerprint: string; content: string }[]> {
    if (!userIds.length) return Promise.resolve([]);
    return this.prisma.publicKey.findMany({
      where: { userId: { in: userIds }, verified: true },
      select: { id: true, userId: true, fingerprint: true, content: true },
      orderBy: { id: 'asc' },
    });
  }

  gpgKeys(userIds: number[]): Promise<GpgKeyWithSubkeys[]> {
    if (!userIds.length) return Promise.resolve([]);
    return this.prisma.gpgKey.findMany({
      where: { userId: { in: userIds }, primaryId: null },
      include: { subkeys: { orderBy: { id: 'asc' } } },
      orderBy: { id: 'asc' },
    });
  }
}
