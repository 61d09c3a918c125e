import { ServerNats, type NatsOptions } from '@nestjs/microservices';
import { headers as natsHeaders, type Msg, type NatsConnection, type SubscriptionOptions } from '@nats-io/transport-node';
import { DomainError, ErrorCode, errorEnvelope, type ErrorEnvelope } from '@cairn/contracts';
import { DEFAULT_RPC_MAX_MESSAGE_BYTES } from '../config/settings.js';
import { randomUUID } from 'node:crypto';
import { NatsNamespace } from '../nats/nats-namespace.js';
import {
  BusTransfers, fetchTransfer, safeMessageBytes, transferTicketOf, withTransferTicket,
} from './bus-transfer.js';
import { deadlineFromHeaders } from './rpc-deadline.js';

const encoder = new TextEncoder();
/** How long a large request may take to fetch when its caller sent no deadline. */
const FETCH_WITHOUT_DEADLINE_MS = 30_000;

export interface BusServerOptions {
  /** `[cairn] RPC_MAX_MESSAGE_SIZE`. */
  maxMessageBytes?: number;
  /** It names the subject its large replies are fetched from. */
  service?: string;
}

interface OutgoingPacket {
  id?: string;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

/** Handlers keep their plain patterns; a reply that can be neither sent nor parked gets an error envelope at once. */
export class NamespacedServerNats extends ServerNats {
  private transfers: BusTransfers | undefined;
  private readonly maxMessageBytes: number;
  private readonly service: string | undefined;

  constructor(
    private readonly namespace: NatsNamespace,
    options: Required<NatsOptions>['options'],
    bus: BusServerOptions = {},
  ) {
    super(options);
    this.maxMessageBytes = bus.maxMessageBytes ?? DEFAULT_RPC_MAX_MESSAGE_BYTES;
    this.service = bus.service;
  }

  get parkedBytes(): number {
    return this.transfers?.parkedBytes ?? 0;
  }

  override bindEvents(client: NatsConnection): void {
    this.transfers = new BusTransfers(client, this.namespace, { maxMessageBytes: this.maxMessageBytes, owner: this.service });
    const ns = this.namespace;
    const scoped: Pick<NatsConnection, 'subscribe'> = {
      subscribe: (subject: string, opts?: SubscriptionOptions) =>
        client.subscribe(ns.subject(subject), { ...opts, queue: opts?.queue === undefined ? undefined : ns.name(opts.queue) }),
    };
    super.bindEvents(scoped);
  }

  override async close(): Promise<void> {
    this.transfers?.stop();
    await super.close();
  }

  override async handleMessage(channel: string, natsMsg: Msg): Promise<unknown> {
    let ticket;
    try {
      ticket = transferTicketOf(natsMsg.headers);
    } catch (err) {
      return this.answerError(natsMsg, err);
    }
    if (!ticket) return super.handleMessage(channel, natsMsg);
    let bytes: Uint8Array;
    try {
      const deadline = deadlineFromHeaders(natsMsg.headers) ?? Date.now() + FETCH_WITHOUT_DEADLINE_MS;
      bytes = await fetchTransfer(this.natsConnection(), ticket, { deadline, maxBytes: this.maxMessageBytes });
    } catch (err) {
      return this.answerError(natsMsg, err);
    }
    // The full message, read by Nest as if it had arrived whole.
    const whole = Object.create(natsMsg, { data: { value: bytes } }) as Msg;
    return super.handleMessage(channel, whole);
  }

  override getPublisher(natsMsg: Msg, id: string, ctx: unknown): (response: unknown) => unknown {
    if (!natsMsg.reply) return super.getPublisher(natsMsg, id, ctx as never);
    return (response: unknown) => {
      const packet = Object.assign(response as OutgoingPacket, { id });
      try {
        const out = this.serializer.serialize(packet) as { data: string; headers?: ReturnType<typeof natsHeaders> };
        const bytes = encoder.encode(out.data);
        const nc = this.natsConnection();
        if (bytes.length <= safeMessageBytes(nc)) return natsMsg.respond(bytes, { headers: out.headers });
        const deadline = deadlineFromHeaders(natsMsg.headers);
        const ticket = this.transfersOf().park(bytes, 'the reply', deadline);
        const standIn = JSON.stringify({ id, response: null, isDisposed: packet.isDisposed ?? true });
        return natsMsg.respond(standIn, { headers: withTransferTicket(ticket, out.headers ?? natsHeaders()) });
      } catch (err) {
        if (err instanceof DomainError && err.code === ErrorCode.CONTENT_TOO_LARGE) {
          // The caller's request was fine: to it this is a server failure (500), not a 413; the log says which.
          const errorId = randomUUID();
          this.logger.error(`${natsMsg.subject}: ${err.message}`, `errorId=${errorId}`);
          return this.answerError(natsMsg, new DomainError(ErrorCode.INTERNAL, 'internal error', undefined, errorId), id);
        }
        return this.answerError(natsMsg, err, id);
      }
    };
  }

  private answerError(natsMsg: Msg, err: unknown, id?: string): void {
    if (!natsMsg.reply) return;
    let packetId = id;
    if (packetId === undefined) {
      try {
        packetId = (natsMsg.json() as { id?: string }).id;
      } catch {
        packetId = undefined;
      }
    }
    const envelope: ErrorEnvelope =
      err instanceof DomainError ? err.toEnvelope() : errorEnvelope(ErrorCode.INTERNAL, `the reply could not be sent: ${String((err as Error)?.message ?? err)}`);
    if (!(err instanceof DomainError)) this.logger.error(err);
    try {
      natsMsg.respond(JSON.stringify({ id: packetId, err: envelope, isDisposed: true }));
    } catch (publishError) {
      this.logger.error(publishError);
    }
  }

  /** While it is disconnected the subscriptions are not live (renewed when it reconnects). */
  async answering(): Promise<boolean> {
    const nc = this.natsConnection();
    if (nc.isClosed()) return false;
    await nc.flush();
    return true;
  }

  private natsConnection(): NatsConnection {
    return this.unwrap<NatsConnection>();
  }

  private transfersOf(): BusTransfers {
    if (!this.transfers) throw new DomainError(ErrorCode.UNAVAILABLE, 'the service is not listening yet');
    return this.transfers;
  }
}
