import { headers as natsHeaders, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { DomainError, ErrorCode } from '@cairn/contracts';
import { randomUUID } from 'node:crypto';
import { NatsNamespace } from '../nats/nats-namespace.js';

/** Messages over NATS `max_payload`: parked behind a one-time ticket and pulled in chunks; bounded, expiring with the deadline. */

export const TRANSFER_HEADER = 'cairn-transfer';
/** Expired, fetched already, or sender restarted. */
const TRANSFER_GONE_HEADER = 'cairn-transfer-gone';
/** In the namespace. */
export const TRANSFER_SUBJECT_PREFIX = 'cairn.transfer';

/** Used until the connection reports the server's. */
export const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
/** For headers and the stand-in envelope. */
const HEADROOM_BYTES = 16 * 1024;
const DEFAULT_TTL_MS = 30_000;
/** A fetch started in time may still be running. */
const TTL_GRACE_MS = 5_000;

/** The one home of that threshold: larger bodies travel as a transfer. */
export function safeMessageBytes(nc: NatsConnection | undefined): number {
  const max = nc?.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
  return Math.max(1024, max - HEADROOM_BYTES);
}

export interface TransferTicket {
  subject: string;
  id: string;
  size: number;
}

interface Parked {
  bytes: Uint8Array;
  timer: NodeJS.Timeout;
}

export interface BusTransfersOptions {
  /** Larger ones are refused with CONTENT_TOO_LARGE. */
  maxMessageBytes: number;
  /** Default twice `maxMessageBytes`; beyond it, UNAVAILABLE. */
  maxTotalBytes?: number;
  /** `cairn.transfer.<owner>.<id>`, so a least-privilege account subscribes to its own only. */
  owner?: string;
}

export class BusTransfers {
  private readonly parked = new Map<string, Parked>();
  private total = 0;
  private readonly subject: string;
  private subscription: Subscription | undefined;
  private readonly maxTotalBytes: number;

  constructor(
    private readonly nc: NatsConnection,
    namespace: NatsNamespace,
    private readonly options: BusTransfersOptions,
  ) {
    const owner = (options.owner ?? 'any').replace(/[^\w-]/g, '_');
    this.subject = namespace.subject(`${TRANSFER_SUBJECT_PREFIX}.${owner}.${randomUUID().replaceAll('-', '')}`);
    this.maxTotalBytes = options.maxTotalBytes ?? 2 * options.maxMessageBytes;
  }

  get maxMessageBytes(): number {
    return this.options.maxMessageBytes;
  }

  get parkedBytes(): number {
    return this.total;
  }

  start(): void {
    if (this.subscription) return;
    this.subscription = this.nc.subscribe(this.subject, { callback: (err, msg) => {
      if (!err) this.serve(msg);
    } });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    for (const id of [...this.parked.keys()]) this.drop(id);
  }

  /** At once, so the caller answers at once. */
  park(bytes: Uint8Array, what: string, deadline?: number): TransferTicket {
    if (bytes.length > this.options.maxMessageBytes) {
      throw new DomainError(
        ErrorCode.CONTENT_TOO_LARGE,
        `${what} of ${bytes.length} bytes exceeds the largest message the services exchange (${this.options.maxMessageBytes} bytes, [cairn] RPC_MAX_MESSAGE_SIZE)`,
      );
    }
    if (this.total + bytes.length > this.maxTotalBytes) {
      throw new DomainError(ErrorCode.UNAVAILABLE, `too many large messages in flight to carry ${what} of ${bytes.length} bytes now; try again`);
    }
    this.start();
    const id = randomUUID();
    const ttl = deadline === undefined ? DEFAULT_TTL_MS : Math.max(0, deadline - Date.now()) + TTL_GRACE_MS;
    const timer = setTimeout(() => this.drop(id), ttl);
    timer.unref();
    this.parked.set(id, { bytes, timer });
    this.total += bytes.length;
    return { subject: this.subject, id, size: bytes.length };
  }

  drop(id: string): void {
    const entry = this.parked.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.parked.delete(id);
    this.total -= entry.bytes.length;
  }

  private serve(msg: Msg): void {
    if (!msg.reply) return;
    let request: { id?: unknown; offset?: unknown };
    try {
      request = msg.json();
    } catch {
      request = {};
    }
    const entry = typeof request.id === 'string' ? this.parked.get(request.id) : undefined;
    const offset = typeof request.offset === 'number' ? request.offset : -1;
    if (!entry || offset < 0 || offset >= entry.bytes.length) {
      const h = natsHeaders();
      h.set(TRANSFER_GONE_HEADER, '1');
      msg.respond(new Uint8Array(0), { headers: h });
      return;
    }
    const end = Math.min(entry.bytes.length, offset + safeMessageBytes(this.nc));
    msg.respond(entry.bytes.subarray(offset, end));
    // One-time: the last chunk served ends the ticket.
    if (end === entry.bytes.length) this.drop(request.id as string);
  }
}

export function transferTicketOf(h: MsgHdrs | undefined): TransferTicket | undefined {
  const raw = h?.get(TRANSFER_HEADER);
  if (!raw) return undefined;
  try {
    const t = JSON.parse(raw) as TransferTicket;
    if (typeof t.subject === 'string' && typeof t.id === 'string' && Number.isSafeInteger(t.size) && t.size >= 0) return t;
  } catch {
    // fall through
  }
  throw new DomainError(ErrorCode.INTERNAL, 'malformed transfer ticket');
}

export function withTransferTicket(ticket: TransferTicket, h: MsgHdrs = natsHeaders()): MsgHdrs {
  h.set(TRANSFER_HEADER, JSON.stringify(ticket));
  return h;
}

/** Refuses tickets over `maxBytes`; a gone sender or expired ticket fails at once. */
export async function fetchTransfer(
  nc: NatsConnection,
  ticket: TransferTicket,
  options: { deadline: number; maxBytes: number },
): Promise<Uint8Array> {
  if (ticket.size > options.maxBytes) {
    throw new DomainError(
      ErrorCode.CONTENT_TOO_LARGE,
      `a message of ${ticket.size} bytes exceeds the largest this process accepts (${options.maxBytes} bytes, [cairn] RPC_MAX_MESSAGE_SIZE)`,
    );
  }
  const out = new Uint8Array(ticket.size);
  let offset = 0;
  while (offset < ticket.size) {
    const left = options.deadline - Date.now();
    if (left <= 0) throw new DomainError(ErrorCode.TIMEOUT, `fetching a large message (${ticket.size} bytes) did not finish in time`);
    let reply: Msg;
    try {
      reply = await nc.request(ticket.subject, JSON.stringify({ id: ticket.id, offset }), { timeout: left });
    } catch (err) {
      throw new DomainError(
        /timeout/i.test(String((err as Error)?.message ?? err)) ? ErrorCode.TIMEOUT : ErrorCode.UNAVAILABLE,
        `the sender of a large message (${ticket.size} bytes) is gone: ${(err as Error)?.message ?? String(err)}`,
      );
    }
    const chunk = reply.data;
    if (reply.headers?.get(TRANSFER_GONE_HEADER) || chunk.length === 0 || offset + chunk.length > ticket.size) {
      throw new DomainError(ErrorCode.UNAVAILABLE, `a large message (${ticket.size} bytes) is no longer available from its sender`);
    }
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
