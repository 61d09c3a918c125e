import { Injectable } from '@nestjs/common';
import { Prisma, type DeployKey } from '../../generated/prisma/client.js';
import { PrismaService, REPO_SCHEMA } from '../../foundation/prisma/prisma.service.js';

export type DeployKeyRow = DeployKey;

export interface NewDeployKey {
  repoId: number;
  name: string;
  content: string;
  fingerprint: string;
  readOnly: boolean;
}

const DEPLOY_KEYS = Prisma.raw(`"${REPO_SCHEMA}"."deploy_keys"`);

@Injectable()
export class DeployKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(k: NewDeployKey): Promise<DeployKeyRow> {
    return this.prisma.deployKey.create({ data: k });
  }

  async list(
    repoId: number,
    filter: { id?: number; fingerprint?: string },
    skip: number,
    take: number,
  ): Promise<{ rows: DeployKeyRow[]; total: number }> {
    const where: Prisma.DeployKeyWhereInput = {
      repoId,
      ...(filter.id ? { id: filter.id } : {}),
      ...(filter.fingerprint ? { fingerprint: filter.fingerprint } : {}),
    };
    const [rows, total] = await Promise.all([
      this.prisma.deployKey.findMany({ where, orderBy: { id: 'asc' }, skip, take }),
      this.prisma.deployKey.count({ where }),
    ]);
    return { rows, total };
  }

  findInRepo(repoId: number, id: number): Promise<DeployKeyRow | null> {
    return this.prisma.deployKey.findFirst({ where: { id, repoId } });
  }

  findForRepo(fingerprint: string, owner: string, name: string): Promise<(DeployKeyRow & { repository: { id: number; ownerId: number; ownerName: string; name: string } }) | null> {
    return this.prisma.deployKey.findFirst({
      where: { fingerprint, repository: { ownerLowerName: owner.toLowerCase(), lowerName: name.toLowerCase() } },
      include: { repository: { select: { id: true, ownerId: true, ownerName: true, name: true } } },
    });
  }

  async fingerprintUsed(fingerprint: string): Promise<boolean> {
    return (await this.prisma.deployKey.count({ where: { fingerprint } })) > 0;
  }

  async delete(repoId: number, id: number): Promise<boolean> {
    return (await this.prisma.deployKey.deleteMany({ where: { id, repoId } })).count > 0;
  }

  /** Records a use; at most one write per key and window, however many replicas (as user keys). */
  async touch(id: number, intervalMs: number): Promise<void> {
    const seconds = intervalMs / 1000;
    await this.prisma.$executeRaw`
      UPDATE ${DEPLOY_KEYS} SET last_used_at = now()
      WHERE id = ${id} AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${seconds}::double precision))`;
  }
}
