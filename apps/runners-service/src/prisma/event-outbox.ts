import { Injectable, Optional } from '@nestjs/common';
import { newEvent, outboxRow, OutboxRelay } from '@cairn/platform';
import type { Tx } from './prisma.service.js';

/**
 * Domain events through the transactional outbox: `record` inside the transaction that makes the change, `kick`
 * after it committed so the relay publishes at once instead of at its next poll.
 */
@Injectable()
export class EventOutbox {
  constructor(@Optional() private readonly relay: OutboxRelay | null) {}

  async record<T>(tx: Tx, type: string, data: T): Promise<void> {
    const row = outboxRow(newEvent(type, data));
    await tx.outboxEvent.create({ data: { id: row.id, subject: row.subject, payload: row.payload } });
  }

  kick(): void {
    this.relay?.kick();
  }
}
