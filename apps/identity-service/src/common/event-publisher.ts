import { Injectable, Optional } from '@nestjs/common';
import type { EventContract, EventSubject } from '@cairn/contracts';
import { newEvent, OutboxRelay } from '@cairn/platform';
import type { Tx } from '../prisma/prisma.service.js';
import { OutboxRepository } from './outbox.repository.js';

// `record` inside the transaction that makes the change, `kick` after commit; the commit's NOTIFY wakes whichever
// relay listens, so rows the admin CLI writes are published at once too.
@Injectable()
export class EventPublisher {
  constructor(
    private readonly outbox: OutboxRepository,
    @Optional() private readonly relay: OutboxRelay | null,
  ) {}

  async record<S extends EventSubject>(tx: Tx, type: S, data: EventContract[S]): Promise<void> {
    await this.outbox.add(tx, newEvent(type, data));
  }

  kick(): void {
    this.relay?.committed();
  }
}
