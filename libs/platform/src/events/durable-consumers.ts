import { EVENT_CONSUMERS, type AnyDomainEvent, type EventConsumerName } from '@cairn/contracts';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { consumeEvents } from './jetstream.js';

/**
 * A service's durable consumers (declared in `EVENT_CONSUMERS`), started once the app has booted (so handlers find
 * their dependencies ready) and drained on shutdown.
 */
export abstract class DurableConsumers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly stops: (() => Promise<void>)[] = [];

  protected constructor(
    private readonly nc: NatsConnection,
    private readonly consumers: readonly EventConsumerName[],
  ) {}

  /** Throw to have the event redelivered; must be idempotent. */
  protected abstract handle(event: AnyDomainEvent): Promise<void>;

  async onApplicationBootstrap(): Promise<void> {
    for (const durable of this.consumers) {
      this.stops.push(
        await consumeEvents(this.nc, {
          durable,
          subjects: [EVENT_CONSUMERS[durable].subject],
          handle: (event) => this.handle(event),
        }),
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.stops.splice(0).map((stop) => stop()));
  }
}
