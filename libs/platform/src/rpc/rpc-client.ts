import { connect, headers as natsHeaders, type NatsConnection, type NodeConnectionOptions } from '@nats-io/transport-node';
import { DomainError, ErrorCode, isErrorEnvelope, type RpcReply, type RpcRequest, type RpcSubject } from '@cairn/contracts';
import { randomUUID } from 'node:crypto';
import { CORRELATION_HEADER, currentCorrelationId } from '../logging/correlation.js';
import { DEFAULT_RPC_MAX_MESSAGE_BYTES } from '../config/settings.js';
import { NatsNamespace } from '../nats/nats-namespace.js';
import {
  BusTransfers, fetchTransfer, safeMessageBytes, transferTicketOf, withTransferTicket,
  type TransferTicket,
} from './bus-transfer.js';
import { DEADLINE_HEADER, currentRpcDeadline } from './rpc-deadline.js';
import { rpcClientDuration } from '../metrics/cairn-metrics.js';
import { rpcOutcome } from './rpc-metrics.interceptor.js';
import { SpanKind, inSpan } from '../tracing/trace-context.js';
import { injectTraceHeaders } from '../tracing/nats-trace.js';

export interface RpcSendOptions {
  /** Defaults to the client's timeout. */
  timeoutMs?: number;
}

export interface RpcClientOptions {
  /** `[cairn] RPC_MAX_MESSAGE_SIZE`. */
  maxMessageBytes?: number;
  /** It names the subject its large requests are fetched from. */
  service?: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface ReplyPacket {
  id?: string;
  response?: unknown;
  err?: unknown;
  isDisposed?: boolean;
}

/** Speaks Nest's NATS packet format itself so that messages over `max_payload` can be parked and fetched (`bus-transfer.ts`). */
export class RpcClient {
  private nc: NatsConnection | undefined;
  private transfers: BusTransfers | undefined;
  private connecting: Promise<void> | undefined;
  private readonly maxMessageBytes: number;
  private readonly service: string | undefined;

  private readonly connectOptions: NodeConnectionOptions;

  constructor(
    connection: string | NodeConnectionOptions,
    private readonly defaultTimeoutMs = 10_000,
    private readonly name = 'cairn',
    private readonly namespace: NatsNamespace = NatsNamespace.none,
    options: RpcClientOptions = {},
  ) {
    this.connectOptions = typeof connection === 'string' ? { servers: connection.split(',') } : connection;
    this.maxMessageBytes = options.maxMessageBytes ?? DEFAULT_RPC_MAX_MESSAGE_BYTES;
    this.service = options.service;
  }

  get parkedBytes(): number {
    return this.transfers?.parkedBytes ?? 0;
  }

  async connect(): Promise<void> {
    // Concurrent callers share one connection attempt.
    this.connecting ??= connect({ ...this.connectOptions, name: this.name, maxReconnectAttempts: -1 }).then(
      (nc) => {
        this.nc = nc;
        this.transfers = new BusTransfers(nc, this.namespace, { maxMessageBytes: this.maxMessageBytes, owner: this.service });
      },
      (err: unknown) => {
        this.connecting = undefined;
        throw err;
      },
    );
    await this.connecting;
  }

  async close(): Promise<void> {
    const nc = this.nc;
    this.nc = undefined;
    this.connecting = undefined;
    this.transfers?.stop();
    await nc?.close();
  }

  async send<S extends RpcSubject>(
    subject: S,
    payload: RpcRequest<S>,
    options: RpcSendOptions = {},
  ): Promise<RpcReply<S>> {
    return inSpan(
      `rpc.send ${subject}`,
      { kind: SpanKind.CLIENT, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject } },
      () => this.timed(subject, payload, options),
    );
  }

  private async timed<S extends RpcSubject>(subject: S, payload: RpcRequest<S>, options: RpcSendOptions): Promise<RpcReply<S>> {
    const end = rpcClientDuration.startTimer({ subject });
    try {
      const reply = await this.request(subject, payload, options);
      end({ outcome: 'ok' });
      return reply;
    } catch (err) {
      end({ outcome: rpcOutcome(err) });
      throw err;
    }
  }

  private async request<S extends RpcSubject>(subject: S, payload: RpcRequest<S>, options: RpcSendOptions): Promise<RpcReply<S>> {
    const ms = options.timeoutMs ?? this.defaultTimeoutMs;
    const inherited = currentRpcDeadline();
    const deadline = Math.min(Date.now() + ms, inherited ?? Infinity);
    const left = deadline - Date.now();
    if (left <= 0) throw new DomainError(ErrorCode.TIMEOUT, `no time left to call ${subject} (the request's deadline passed)`);
    const { nc, transfers } = this.connected(subject);

    const h = natsHeaders();
    const rid = currentCorrelationId();
    if (rid) h.set(CORRELATION_HEADER, rid);
    h.set(DEADLINE_HEADER, String(deadline));
    injectTraceHeaders(h);
    const pattern = this.namespace.subject(subject);
    const id = randomUUID();
    let body = encoder.encode(JSON.stringify({ pattern, data: payload, id }));
    let ticket: TransferTicket | undefined;
    if (body.length > safeMessageBytes(nc)) {
      // Refused here (CONTENT_TOO_LARGE → 413) before anything reaches a service.
      ticket = transfers.park(body, `the request to ${subject}`, deadline);
      withTransferTicket(ticket, h);
      body = encoder.encode(JSON.stringify({ pattern, data: null, id }));
    }
    try {
      const msg = await nc.request(pattern, body, { timeout: left, headers: h });
      const replyTicket = transferTicketOf(msg.headers);
      const bytes = replyTicket
        ? await fetchTransfer(nc, replyTicket, { deadline, maxBytes: this.maxMessageBytes })
        : msg.data;
      return decodeReply<RpcReply<S>>(bytes, subject);
    } catch (err) {
      throw toDomainError(err, subject, left);
    } finally {
      if (ticket) transfers.drop(ticket.id);
    }
  }

  /** Core NATS, not durable: use the outbox for domain events. */
  emit(subject: string, payload: unknown): void {
    const nc = this.nc;
    if (!nc) return;
    try {
      nc.publish(this.namespace.subject(subject), JSON.stringify({ pattern: this.namespace.subject(subject), data: payload }));
    } catch {
      // not durable by contract
    }
  }

  private connected(subject: string): { nc: NatsConnection; transfers: BusTransfers } {
    if (!this.nc || !this.transfers || this.nc.isClosed()) {
      throw new DomainError(ErrorCode.UNAVAILABLE, `the message bus is not reachable (${subject})`);
    }
    return { nc: this.nc, transfers: this.transfers };
  }
}

function decodeReply<R>(bytes: Uint8Array, subject: string): R {
  if (bytes.length === 0) throw new DomainError(ErrorCode.UNAVAILABLE, `no service is answering ${subject}`);
  const packet = JSON.parse(decoder.decode(bytes)) as ReplyPacket;
  if (packet.err !== undefined && packet.err !== null) throw packet.err;
  return packet.response as R;
}

function toDomainError(err: unknown, subject: string, ms: number): DomainError {
  if (err instanceof DomainError) return err;
  if (isErrorEnvelope(err)) return DomainError.fromEnvelope(err);
  const name = (err as { name?: unknown })?.name;
  const message = err instanceof Error ? err.message : String((err as { message?: unknown })?.message ?? err);
  if (name === 'TimeoutError' || /^timeout$/i.test(message)) {
    return new DomainError(ErrorCode.TIMEOUT, `the service behind ${subject} did not answer within ${ms} ms`);
  }
  const cause = (err as { cause?: unknown })?.cause;
  const causeName = (cause as { name?: unknown })?.name;
  if (name === 'NoRespondersError' || causeName === 'NoRespondersError' || /no responders|503|NO_RESPONDERS/i.test(message)) {
    return new DomainError(ErrorCode.UNAVAILABLE, `no service is answering ${subject}`);
  }
  // `Connection lost. Trying to reconnect…`: the bus is down for now (503), not a failure of the call (500).
  if (/CONNECTION_CLOSED|CONNECTION_REFUSED|disconnect|closed|connection lost|reconnect/i.test(message)) {
    return new DomainError(ErrorCode.UNAVAILABLE, `the message bus is not reachable (${subject})`);
  }
  return new DomainError(ErrorCode.INTERNAL, `call to ${subject} failed: ${message}`);
}
