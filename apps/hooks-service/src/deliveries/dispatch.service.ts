import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AnyDomainEvent, HookDeliveryDto } from '@cairn/contracts';
import { COMMON_SETTINGS, type CommonSettings } from '@cairn/platform';
import { mapDomainEvent, type HookEventSpec } from '../payloads/event-map.js';
import { renderPayload } from '../payloads/formats.js';
import { branchMatches } from '../webhooks/branch-filter.js';
import { headerEventOf, hookWants } from '../webhooks/hook-events.js';
import { hookMeta } from '../webhooks/webhook.mapper.js';
import type { TestDelivery } from '../webhooks/test-delivery.js';
import { WebhooksRepository, type MatchableHook } from '../webhooks/webhooks.repository.js';
import { DeliveriesRepository, type NewDelivery } from './deliveries.repository.js';
import { DeliveryQueue } from './delivery-queue.js';
import { toDeliveryDto } from './delivery.mapper.js';

// Idempotent per event: a redelivered event writes nothing new and re-enqueues what has not started yet.
@Injectable()
export class DispatchService implements TestDelivery {
  private readonly logger = new Logger('DispatchService');

  constructor(
    private readonly hooks: WebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: DeliveryQueue,
    @Inject(COMMON_SETTINGS) private readonly settings: CommonSettings,
  ) {}

  async handleEvent(event: AnyDomainEvent): Promise<{ deliveries: number }> {
    const mapped = mapDomainEvent(event.type, event.data, { rootUrl: this.settings.rootUrl });
    if (!mapped) return { deliveries: 0 };
    const { repository } = mapped;
    if (mapped.effect === 'copy-default-hooks') {
      const copied = await this.hooks.copyDefaultHooks(repository.id);
      if (copied) this.logger.log(`copied ${copied} default hook(s) into repository ${repository.id}`);
    }
    if (mapped.effect === 'delete-repository-hooks') await this.hooks.deleteRepositoryHooks(repository.id);

    let hooks = mapped.specs.length ? await this.hooks.activeHooksFor(repository.id, repository.ownerId) : [];
    if (mapped.excludeRepositoryHooks) hooks = hooks.filter((h) => h.repoId !== repository.id);
    const rows: NewDelivery[] = [];
    for (const spec of mapped.specs) {
      const rendered = new Map<string, ReturnType<typeof renderPayload>>();
      for (const hook of hooks) {
        if (!this.matches(hook, spec)) continue;
        const cacheKey = `${hook.type}\u0000${JSON.stringify(hook.meta)}`;
        if (!rendered.has(cacheKey)) {
          rendered.set(cacheKey, renderPayload(hook.type, spec.eventType, spec.payload, hookMeta(hook), spec.commitCount));
        }
        const body = rendered.get(cacheKey);
        if (!body) continue;
        rows.push(this.row(hook, spec, body.body, repository.id, event.id));
      }
    }
    const inserted = await this.deliveries.createMany(rows);
    // All new: none has been attempted yet. Otherwise (the event again) those still waiting are enqueued again.
    const waiting = inserted.length === rows.length ? inserted : await this.deliveries.awaitingFirstAttempt(event.id);
    await this.queue.enqueueFirstAttempts(event.id, waiting);
    return { deliveries: inserted.length };
  }

  async deliverTest(hook: MatchableHook, spec: HookEventSpec, repoId: number): Promise<HookDeliveryDto | null> {
    const body = renderPayload(hook.type, spec.eventType, spec.payload, hookMeta(hook), undefined);
    if (!body) return null;
    const row = await this.deliveries.create(this.row(hook, spec, body.body, repoId, null));
    await this.queue.enqueue([{ deliveryId: row.id, attempt: 1 }]);
    return toDeliveryDto(row);
  }

  private matches(hook: MatchableHook, spec: HookEventSpec): boolean {
    if (!hookWants(hook, spec.eventType)) return false;
    return spec.branch === undefined || branchMatches(hook.branchFilter, spec.branch);
  }

  private row(
    hook: MatchableHook,
    spec: HookEventSpec,
    payload: string,
    repoId: number,
    eventId: string | null,
  ): NewDelivery {
    return {
      guid: randomUUID(),
      hookId: hook.id,
      repoId,
      eventId,
      eventKey: spec.key,
      event: headerEventOf(spec.eventType),
      eventType: spec.eventType,
      action: spec.action ?? null,
      payload,
    };
  }
}
