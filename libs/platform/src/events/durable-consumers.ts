import type { AnyDomainEvent } from '@cairn/contracts';
import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { consumeEvents } from './jetstream.js';

/** One durable consumer: a plain name (replicas share it) and its one filter subject (NATS 2.9 takes one). */
export interface DurableConsumer {
  durable: string;
  subject: string;
}

/**
 * A service's durable consumers, started once the app has booted (so handlers find their dependencies ready) and
 * drained on shutdown; `handle` receives which consumer delivered the event.
 */
export abstract class DurableConsumers implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly stops: (() => Promise<void>)[] = [];

  protected constructor(
    private readonly nc: NatsConnection,
    private readonly consumers: readonly DurableConsumer[],
  ) {}

  /** Throw to have the event redelivered; must be idempotent. */
  protected abstract handle(event: AnyDomainEvent, consumer: DurableConsumer): Promise<void>;

  async onApplicationBootstrap(): Promise<void> {
    for (const consumer of this.consumers) {
      this.stops.push(
        await consumeEvents(this.nc, {
          durable: consumer.durable,
          subjects: [consumer.subject],
          handle: (event) => this.handle(event, consumer),
        }),
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.stops.splice(0).map((stop) => stop()));
  }
}
