import { Injectable } from '@nestjs/common';
import type { Variable } from '../generated/prisma/client.js';
import { PrismaService } from '../prisma/prisma.service.js';
import type { ScopeKey } from '../actions/actions-scope.js';

@Injectable()
export class VariablesRepository {
  constructor(private readonly prisma: PrismaService) {}

  async page(key: ScopeKey, skip: number, take: number): Promise<{ rows: Variable[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.prisma.variable.findMany({ where: key, orderBy: { name: 'asc' }, skip, take }),
      this.prisma.variable.count({ where: key }),
    ]);
    return { rows, total };
  }

  find(key: ScopeKey, name: string): Promise<Variable | null> {
    return this.prisma.variable.findUnique({ where: { ownerId_repoId_name: { ...key, name } } });
  }

  async create(key: ScopeKey, v: Pick<Variable, 'name' | 'data' | 'description'>): Promise<void> {
    await this.prisma.variable.create({ data: { ...key, ...v } });
  }

  async update(id: number, v: Pick<Variable, 'name' | 'data' | 'description'>): Promise<void> {
    await this.prisma.variable.update({ where: { id }, data: v });
  }

  async delete(key: ScopeKey, name: string): Promise<boolean> {
    const { count } = await this.prisma.variable.deleteMany({ where: { ...key, name } });
    return count > 0;
  }
}
