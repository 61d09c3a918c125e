import { Injectable } from '@nestjs/common';
import type { DomainEvent } from '@cairn/contracts';
import { outboxRow } from '@cairn/platform';
import type { Tx } from '../prisma/prisma.service.js';

@Injectable()
export class OutboxRepository {
  async add(tx: Tx, event: DomainEvent): Promise<void> {
    await tx.outboxEvent.create({ data: outboxRow(event) });
  }
}
