import { Injectable } from '@nestjs/common';
import { PrismaService, type Tx } from './prisma.service.js';

/** Lets a service commit repository calls and the outbox record together; only `*.repository.ts` touch tables. */
@Injectable()
export class Transactions {
  constructor(private readonly prisma: PrismaService) {}

  run<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }
}
