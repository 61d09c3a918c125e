import { Injectable } from '@nestjs/common';
import type { Secret } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { ScopeKey } from '../actions/actions-scope.js';

export type SecretChange = Pick<Secret, 'dataSealed' | 'description'>;

/** Actions secrets of a scope; names are stored upper-case (unique per scope). */
@Injectable()
export class SecretsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async page(key: ScopeKey, skip: number, take: number): Promise<{ rows: Secret[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.prisma.secret.findMany({ where: key, orderBy: { name: 'asc' }, skip, take }),
      this.prisma.secret.count({ where: key }),
    ]);
    return { rows, total };
  }

  async updateExisting(key: ScopeKey, name: string, change: SecretChange): Promise<boolean> {
    const { count } = await this.prisma.secret.updateMany({ where: { ...key, name }, data: change });
    return count > 0;
  }

  /** Refused by the unique key when the name exists (a concurrent create). */
  async create(key: ScopeKey, name: string, change: SecretChange): Promise<void> {
    await this.prisma.secret.create({ data: { ...key, name, ...change } });
  }

  async delete(key: ScopeKey, name: string): Promise<boolean> {
    const { count } = await this.prisma.secret.deleteMany({ where: { ...key, name } });
    return count > 0;
  }
}
