import type { EventContract, EventSubject } from '@cairn/contracts';
import { Injectable, Optional } from '@nestjs/common';
import { newEvent, OutboxRelay, outboxRow } from './outbox.js';

export interface OutboxTx {
  outboxEvent: {
    create(args: { data: { id: string; subject: string; payload: object; traceparent: string | null } }): PromiseLike<unknown>;
  };
}

/** The commit's NOTIFY already wakes the relay; `kick` covers the moments its listening connection is being replaced. */
@Injectable()
export class EventOutbox {
  constructor(@Optional() private readonly relay: OutboxRelay | null) {}

  async record<S extends EventSubject>(tx: OutboxTx, type: S, data: EventContract[S]): Promise<void> {
    const row = outboxRow(newEvent(type, data));
    await tx.outboxEvent.create({ data: row });
  }

  kick(): void {
    this.relay?.committed();
  }
}
