import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { COMMON_SETTINGS, createPgPool, type CommonSettings } from '@cairn/platform';
import pg from 'pg';

/** Plain SQL for the delivery hot path: one round trip each, without an ORM's per-query cost. */
@Injectable()
export class SqlPool implements OnApplicationShutdown {
  readonly pool: pg.Pool;

  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.pool = createPgPool(settings.databaseUrl, { max: 20, name: 'SqlPool' });
  }

  async query<R extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<R[]> {
    return (await this.pool.query<R>(text, params)).rows;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
