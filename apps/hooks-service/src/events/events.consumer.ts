import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { EVENTS_STREAM } from '@cairn/contracts';
import { consumeEvents, ensureEventsStream, NATS_CONNECTION } from '@cairn/platform';
import { AckPolicy, DeliverPolicy, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { DispatchService } from '../deliveries/dispatch.service.js';

/** The durable consumer name of hooks-service on `CAIRN_EVENTS` (replicas share it). */
export const HOOKS_DURABLE = 'hooks-service';
/** What hooks-service consumes. */
export const HOOKS_EVENT_FILTER = 'repo.evt.>';

/**
 * Creates the durable consumer with a single `filter_subject` when it does not exist yet. `consumeEvents` creates
 * consumers with `filter_subjects` (a list), which NATS servers before 2.10 (Debian ships 2.9) refuse; when the
 * consumer already exists it only tries to update it, tolerates that failing, and consumes.
 */
async function ensureDurableConsumer(nc: NatsConnection): Promise<void> {
  await ensureEventsStream(nc);
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.consumers.info(EVENTS_STREAM, HOOKS_DURABLE);
    return;
  } catch {
    // missing: create it below
  }
  await jsm.consumers
    .add(EVENTS_STREAM, {
      durable_name: HOOKS_DURABLE,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: HOOKS_EVENT_FILTER,
      ack_wait: 30_000 * 1_000_000,
      max_ack_pending: 1000,
    })
    .catch(async (err: Error) => {
      await jsm.consumers.info(EVENTS_STREAM, HOOKS_DURABLE).catch(() => {
        throw err;
      });
    });
}

/** Consumes `repo.evt.>` durably; an event is acknowledged once its deliveries are written and enqueued. */
@Injectable()
export class EventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventsConsumer');
  private stop?: () => Promise<void>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly dispatch: DispatchService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureDurableConsumer(this.nc);
    this.stop = await consumeEvents(this.nc, {
      durable: HOOKS_DURABLE,
      subjects: [HOOKS_EVENT_FILTER],
      handle: async (event) => {
        const { deliveries } = await this.dispatch.handleEvent(event);
        if (deliveries) this.logger.log(`${event.type} ${event.id}: ${deliveries} deliver${deliveries === 1 ? 'y' : 'ies'}`);
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop?.();
  }
}
