import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { RepoEvents, type PushEventData } from '@cairn/contracts';
import { NATS_CONNECTION, consumeEvents } from '@cairn/platform';
import type { NatsConnection } from '@nats-io/transport-node';
import { MergeCheckService } from './merge-check.service.js';

/** The durable consumer name (replicas share it and split the events). Never renamed once shipped. */
export const PUSH_CONSUMER = 'merge-check-worker';

/** How long one push may be in handling before JetStream redelivers it (a base push may mark thousands of PRs). */
const ACK_WAIT_MS = 120_000;

/**
 * Turns pushes into checks: a durable JetStream consumer of `repo.evt.push.received`. Handling is idempotent
 * (base/head moves are idempotent in repo-service, job ids de-duplicate), so a redelivery after a crash is harmless.
 */
@Injectable()
export class PushConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PushConsumer');
  private stop?: () => Promise<void>;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly checks: MergeCheckService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.stop = await consumeEvents(this.nc, {
      durable: PUSH_CONSUMER,
      subjects: [RepoEvents.pushReceived],
      ackWaitMs: ACK_WAIT_MS,
      handle: async (event) => {
        await this.checks.onPush(event.data as PushEventData);
      },
    });
    this.logger.log(`consuming ${RepoEvents.pushReceived} (durable ${PUSH_CONSUMER})`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop?.().catch(() => undefined);
  }
}
