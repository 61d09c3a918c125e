import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { IdentityEvents, RepoEvents } from '@cairn/contracts';
import { consumeEvents, NATS_CONNECTION } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { PackageDeletions } from './deletions.js';

// One durable consumer per deletion subject (a durable consumer takes one filter subject); replicas share them.
export const PACKAGES_CONSUMERS = [
  { durable: 'packages-service-owners', subject: IdentityEvents.userDeleted },
  { durable: 'packages-service-repositories', subject: RepoEvents.repositoryDeleted },
] as const;

/** Consumes owner and repository deletions; an event is acknowledged once its packages are removed or unlinked. */
@Injectable()
export class DeletionsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeletionsConsumer');
  private readonly stops: (() => Promise<void>)[] = [];

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly deletions: PackageDeletions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const { durable, subject } of PACKAGES_CONSUMERS) {
      const stop = await consumeEvents(this.nc, {
        durable,
        subjects: [subject],
        handle: async (event) => {
          const done = await this.deletions.handle(event);
          if (done && (done.packages || done.unlinked)) {
            this.logger.log(`${event.type} ${event.id}: removed ${done.packages} package(s), unlinked ${done.unlinked}`);
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
