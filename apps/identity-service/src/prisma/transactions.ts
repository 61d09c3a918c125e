import { Injectable } from '@nestjs/common';
import { PrismaService, type Tx } from './prisma.service.js';

/**
 * Where a service says "these repository calls, and the outbox record, commit together" without holding the client:
 * the tables themselves are touched only by `*.repository.ts` files (eslint `cairn/data-access`).
 */
@Injectable()
export class Transactions {
  constructor(private readonly prisma: PrismaService) {}

  run<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }
}
