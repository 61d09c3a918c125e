import { Injectable } from '@nestjs/common';
import type { Prisma, Webhook } from '../generated/prisma/client.js';
import { PrismaService, type Db } from '../prisma/prisma.service.js';
import { SqlPool } from '../prisma/sql-pool.js';

/** Which hooks a scope owns: admin (repo 0, owner 0), owner (repo 0, owner O), repository (repo R). */
export interface HookOwnerFilter {
  repoId: number;
  ownerId: number;
}

export type WebhookRow = Webhook;

export interface MatchableHook {
  id: number;
  repoId: number;
  type: string;
  events: string[];
  sendEverything: boolean;
  branchFilter: string;
  meta: unknown;
}

@Injectable()
export class WebhooksRepository {
  constructor(
    private readonly prisma: PrismaService,
    private readonly sql: SqlPool,
  ) {}

  private where(owner: HookOwnerFilter, extra: Prisma.WebhookWhereInput = {}): Prisma.WebhookWhereInput {
    return owner.repoId ? { repoId: owner.repoId, ...extra } : { repoId: 0, ownerId: owner.ownerId, ...extra };
  }

  async list(owner: HookOwnerFilter, filter: { isSystemWebhook?: boolean }, skip: number, take: number) {
    const where = this.where(owner, filter.isSystemWebhook === undefined ? {} : { isSystemWebhook: filter.isSystemWebhook });
    const [items, total] = await Promise.all([
      this.prisma.webhook.findMany({ where, orderBy: { id: 'asc' }, skip, take }),
      this.prisma.webhook.count({ where }),
    ]);
    return { items, total };
  }

  find(owner: HookOwnerFilter, id: number, db: Db = this.prisma): Promise<WebhookRow | null> {
    return db.webhook.findFirst({ where: this.where(owner, { id }) });
  }

  findById(id: number, db: Db = this.prisma): Promise<WebhookRow | null> {
    return db.webhook.findUnique({ where: { id } });
  }

  create(data: Prisma.WebhookUncheckedCreateInput): Promise<WebhookRow> {
    return this.prisma.webhook.create({ data });
  }

  async update(owner: HookOwnerFilter, id: number, data: Prisma.WebhookUncheckedUpdateInput): Promise<WebhookRow | null> {
    const { count } = await this.prisma.webhook.updateMany({ where: this.where(owner, { id }), data });
    return count ? this.findById(id) : null;
  }

  async delete(owner: HookOwnerFilter, id: number): Promise<boolean> {
    const { count } = await this.prisma.webhook.deleteMany({ where: this.where(owner, { id }) });
    return count > 0;
  }

  /** Once per default hook: the unique (repo_id, copied_from_hook_id) makes a repeat or concurrent copy a no-op. */
  async copyDefaultHooks(repoId: number): Promise<number> {
    const defaults = await this.prisma.webhook.findMany({ where: { repoId: 0, ownerId: 0, isSystemWebhook: false } });
    if (!defaults.length) return 0;
    const { count } = await this.prisma.webhook.createMany({
      data: defaults.map((d) => ({
        repoId,
        ownerId: 0,
        isSystemWebhook: false,
        type: d.type,
        url: d.url,
        httpMethod: d.httpMethod,
        contentType: d.contentType,
        secretSealed: d.secretSealed,
        authorizationSealed: d.authorizationSealed,
        events: d.events,
        sendEverything: d.sendEverything,
        branchFilter: d.branchFilter,
        meta: d.meta as Prisma.InputJsonValue,
        isActive: d.isActive,
        copiedFromHookId: d.id,
      })),
      skipDuplicates: true,
    });
    return count;
  }

  /** R's, O's and every system hook; R = 0 is an owner's event outside any repository (a package not linked). */
  async activeHooksFor(repoId: number, ownerId: number): Promise<MatchableHook[]> {
    const rows = await this.sql.query<{
      id: number; repo_id: number; type: string; events: string[]; send_everything: boolean; branch_filter: string; meta: unknown;
    }>(
      `SELECT id, repo_id, type, events, send_everything, branch_filter, meta FROM hooks.webhooks
        WHERE is_active AND (($1 <> 0 AND repo_id = $1) OR (repo_id = 0 AND owner_id = 0 AND is_system_webhook)
                             OR ($2 <> 0 AND repo_id = 0 AND owner_id = $2))
        ORDER BY id`,
      [repoId, ownerId],
    );
    return rows.map((r) => ({
      id: r.id,
      repoId: r.repo_id,
      type: r.type,
      events: r.events,
      sendEverything: r.send_everything,
      branchFilter: r.branch_filter,
      meta: r.meta,
    }));
  }

  async deleteRepositoryHooks(repoId: number): Promise<number> {
    if (!repoId) return 0;
    const { count } = await this.prisma.webhook.deleteMany({ where: { repoId } });
    return count;
  }

  /** Idempotent: a redelivered deletion event finds nothing left. */
  async deleteOwnerHooks(ownerId: number): Promise<number> {
    if (!ownerId) return 0;
    const { count } = await this.prisma.webhook.deleteMany({ where: { ownerId, repoId: 0 } });
    return count;
  }
}
