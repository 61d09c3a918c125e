import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { IdentityEvents, RepoEvents } from '@cairn/contracts';
import { consumeEvents, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { ScopeCleanup } from './scope-cleanup.js';

// One durable consumer per deletion subject: a durable consumer takes one filter, exact ones keep other events away.
export const RUNNERS_CONSUMERS = [
  { durable: 'runners-service-users', subject: IdentityEvents.userDeleted },
  { durable: 'runners-service-repositories', subject: RepoEvents.repositoryDeleted },
] as const;

/** Consumes deletions durably; an event is acknowledged once the deleted scope's Actions data is gone. */
@Injectable()
export class EventsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('EventsConsumer');
  private readonly stops: (() => Promise<void>)[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly cleanup: ScopeCleanup,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const { durable, subject } of RUNNERS_CONSUMERS) {
      const stop = await consumeEvents(this.nc, {
        durable,
        subjects: [subject],
        handle: async (event) => {
          const removed = await this.cleanup.handle(event);
          if (removed) {
            this.logger.log(
              `${event.type} ${event.id}: removed ${removed.runners} runner(s), ${removed.registrationTokens} ` +
                `registration token(s), ${removed.variables} variable(s), ${removed.secrets} secret(s)`,
            );
          }
        },
      });
      this.stops.push(stop);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.stops.map((stop) => stop()));
  }
}
