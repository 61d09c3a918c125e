import { Injectable } from '@nestjs/common';
import { Prisma, type Runner } from '../generated/prisma/client.js';
import { PrismaService, RUNNERS_SCHEMA, type Db, type Tx } from '../prisma/prisma.service.js';
import type { ScopeKey } from '../actions/actions-scope.js';

const RUNNERS = Prisma.raw(`"${RUNNERS_SCHEMA}".runners`);

export type NewRunner = Pick<
  Runner, 'uuid' | 'name' | 'ownerId' | 'repoId' | 'version' | 'labels' | 'ephemeral' | 'tokenHash' | 'registrationTokenId'
>;

/** Runner rows; a deleted runner keeps its row (`deleted_at`) for its tasks. */
@Injectable()
export class RunnersRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** A page of the live runners of one scope exactly (`'all'`: every scope), most recently online first. */
  async page(scope: ScopeKey | 'all', skip: number, take: number): Promise<{ rows: Runner[]; total: number }> {
    const where: Prisma.RunnerWhereInput =
      scope === 'all'
        ? { deletedAt: null }
        : scope.repoId > 0 ? { repoId: scope.repoId, deletedAt: null } : { ownerId: scope.ownerId, repoId: 0, deletedAt: null };
    const [rows, total] = await Promise.all([
      this.prisma.runner.findMany({ where, orderBy: [{ lastOnline: { sort: 'desc', nulls: 'last' } }, { id: 'desc' }], skip, take }),
      this.prisma.runner.count({ where }),
    ]);
    return { rows, total };
  }

  findLive(id: number): Promise<Runner | null> {
    return this.prisma.runner.findFirst({ where: { id, deletedAt: null } });
  }

  findByUuid(uuid: string): Promise<Runner | null> {
    return this.prisma.runner.findUnique({ where: { uuid } });
  }

  create(tx: Tx, runner: NewRunner): Promise<Runner> {
    return tx.runner.create({ data: runner });
  }

  async markDeleted(tx: Tx, id: number): Promise<boolean> {
    const { count } = await tx.runner.updateMany({ where: { id, deletedAt: null }, data: { deletedAt: new Date() } });
    return count > 0;
  }

  /** The live runner's labels, its row locked until the transaction ends (label changes and Declare serialise). */
  async lockLabels(tx: Tx, id: number): Promise<string[] | null> {
    const [row] = await tx.$queryRaw<{ labels: string[] }[]>`
      SELECT labels FROM runners.runners WHERE id = ${id} AND deleted_at IS NULL FOR UPDATE`;
    return row ? row.labels : null;
  }

  async setLabels(tx: Tx, id: number, labels: string[]): Promise<void> {
    await tx.runner.update({ where: { id }, data: { labels } });
  }

  declare(id: number, version: string, labels: string[], db: Db = this.prisma): Promise<Runner> {
    return db.runner.update({ where: { id }, data: { version, labels } });
  }

  /** `last_online` now, unless written within `intervalMs` (by any replica). */
  touchOnline(id: number, intervalMs: number): Promise<number> {
    const seconds = intervalMs / 1000;
    return this.prisma.$executeRaw`
      UPDATE ${RUNNERS} SET last_online = now()
      WHERE id = ${id} AND (last_online IS NULL OR last_online < now() - make_interval(secs => ${seconds}::double precision))`;
  }

  /** `last_active` and `last_online` now (a task report is also a sign of life), unless written within `intervalMs`. */
  touchActive(id: number, intervalMs: number): Promise<number> {
    const seconds = intervalMs / 1000;
    return this.prisma.$executeRaw`
      UPDATE ${RUNNERS} SET last_active = now(), last_online = now()
      WHERE id = ${id} AND (last_active IS NULL OR last_active < now() - make_interval(secs => ${seconds}::double precision))`;
  }
}
