/** A connection that stops answering without being closed (a network cut: no reset ever arrives) is found and replaced. */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_SERVER } from '../../../../test/support/integration.js';
import { PgListener } from './pg-listener.js';

class FreezableRelay {
  private readonly server: net.Server;
  private readonly open = new Set<{ down: net.Socket; up: net.Socket }>();
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(target: URL) {
    this.server = net.createServer((down) => {
      const up = net.connect(Number(target.port || 5432), target.hostname);
      const pair = { down, up };
      this.sockets.add(down).add(up);
      this.open.add(pair);
      down.pipe(up);
      up.pipe(down);
      const close = () => {
        this.open.delete(pair);
        down.destroy();
        up.destroy();
      };
      down.on('error', close).on('close', close);
      up.on('error', close).on('close', close);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  freeze(): number {
    for (const { down, up } of this.open) {
      down.unpipe(up);
      up.unpipe(down);
      down.removeAllListeners('data');
      up.removeAllListeners('data');
      down.on('data', () => undefined);
      up.on('data', () => undefined);
    }
    const n = this.open.size;
    this.open.clear();
    return n;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

const channel = `cairn_it_${randomUUID().replaceAll('-', '')}`;
let relay: FreezableRelay;
let notifier: pg.Client;

beforeAll(async () => {
  const target = new URL(PG_SERVER);
  relay = new FreezableRelay(target);
  await relay.listen();
  notifier = new pg.Client({ connectionString: `${PG_SERVER}/postgres` });
  await notifier.connect();
});

afterAll(async () => {
  await notifier?.end();
  await relay?.close();
});

describe('PgListener', () => {
  it('replaces a connection that stopped answering without being closed, and hears notifications again', async () => {
    let wakes = 0;
    const url = new URL(`${PG_SERVER}/postgres`);
    url.port = String(relay.port);
    const listener = new PgListener(url.toString(), channel, () => (wakes += 1), 'PgListenerIt');
    try {
      await listener.start();
      expect([listener.listening, listener.connections, wakes]).toEqual([true, 1, 1]);

      expect(relay.freeze()).toBe(1);
      // The frozen connection looks alive; the check's query gets no answer and the connection is replaced.
      await listener.check();
      while (!(listener.listening && listener.connections === 2)) await new Promise((r) => setTimeout(r, 20));
      const afterReconnect = wakes;
      expect(afterReconnect).toBe(2); // starting to listen again wakes the caller once (catch-up)

      await notifier.query('SELECT pg_notify($1, $2)', [channel, '']);
      while (wakes === afterReconnect) await new Promise((r) => setTimeout(r, 20));
      expect(wakes).toBe(afterReconnect + 1);
    } finally {
      await listener.stop();
    }
  });
});
