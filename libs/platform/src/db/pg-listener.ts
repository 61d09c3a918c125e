import { Logger } from '@nestjs/common';
import pg from 'pg';

/** It doubles up to the max. */
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
const CONNECT_TIMEOUT_MS = 5_000;
const CHECK_TIMEOUT_MS = 5_000;

/** How it is found in `pg_stat_activity`. */
export function listenerApplicationName(channel: string): string {
  return `cairn listen ${channel}`.slice(0, 63);
}

/** Its own connection (a pooled one would lose `LISTEN`); `onWake` also runs when listening (re)starts, to catch up. */
export class PgListener {
  private readonly logger: Logger;
  private client?: pg.Client;
  private reconnectTimer?: NodeJS.Timeout;
  private delayMs = 0;
  private stopped = false;
  private connecting?: Promise<void>;
  connections = 0;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly onWake: () => void,
    name = 'PgListener',
  ) {
    this.logger = new Logger(name);
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  /** On failure it keeps trying in the background. */
  start(): Promise<void> {
    return this.connect();
  }

  /** A connection cut without a reset looks alive until TCP gives up: a failed or slow check replaces it. */
  async check(): Promise<void> {
    const client = this.client;
    if (!client) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      this.lost(client, err as Error);
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<void> {
    if (this.stopped || this.client) return;
    const client = new pg.Client({
      connectionString: this.connectionString,
      keepAlive: true,
      // An unreachable server must not hold the service's start (start() resolves after the first try).
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: listenerApplicationName(this.channel),
    });
    // Registered before connecting: an error event without a listener would end the process.
    let failure: Error | undefined;
    const fail = (err: Error) => {
      failure ??= err;
      this.lost(client, err);
    };
    client.on('error', fail);
    client.on('end', () => fail(new Error('connection ended')));
    client.on('notification', (n) => {
      if (n.channel === this.channel) this.onWake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      this.logger.warn(`cannot listen on ${this.channel}: ${(err as Error).message}`);
      this.scheduleReconnect();
      return;
    }
    if (this.stopped || failure) {
      await client.end().catch(() => undefined);
      if (failure) this.scheduleReconnect();
      return;
    }
    this.client = client;
    this.connections += 1;
    this.delayMs = 0;
    this.onWake();
  }

  private lost(client: pg.Client, err: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    if (this.stopped) return;
    this.logger.warn(`listening connection for ${this.channel} lost, reconnecting: ${err.message}`);
    void client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.delayMs = Math.min(Math.max(this.delayMs * 2, RECONNECT_FIRST_MS), RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, this.delayMs);
    this.reconnectTimer.unref();
  }
}
