import { ClientProxyFactory, NatsRecordBuilder, Transport, type ClientProxy } from '@nestjs/microservices';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { DomainError, ErrorCode, isErrorEnvelope, type RpcReply, type RpcRequest, type RpcSubject } from '@cairn/contracts';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { CORRELATION_HEADER, currentCorrelationId } from '../logging/correlation.js';
import { NatsNamespace } from '../nats/nats-namespace.js';

export interface RpcSendOptions {
  /** Give up after this long (ms) and fail with TIMEOUT. Defaults to the client's timeout. */
  timeoutMs?: number;
}

/**
 * The one way to call another service: typed request-reply over NATS with a timeout on every call, the correlation
 * id in a message header, and replies decoded so that every failure surfaces as a {@link DomainError}
 * (service error envelope → its code; nobody listening → UNAVAILABLE; no answer in time → TIMEOUT). Subjects are
 * given plain and sent in the installation's `namespace`.
 * `send` accepts only the subjects of `RpcContract` (@cairn/contracts), with that pair's request and reply types.
 */
export class RpcClient {
  private readonly client: ClientProxy;

  constructor(
    servers: string,
    private readonly defaultTimeoutMs = 10_000,
    name = 'cairn',
    private readonly namespace: NatsNamespace = NatsNamespace.none,
  ) {
    this.client = ClientProxyFactory.create({
      transport: Transport.NATS,
      options: { servers: servers.split(','), name, maxReconnectAttempts: -1 },
    }) as ClientProxy;
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async send<S extends RpcSubject>(
    subject: S,
    payload: RpcRequest<S>,
    options: RpcSendOptions = {},
  ): Promise<RpcReply<S>> {
    const h = natsHeaders();
    const rid = currentCorrelationId();
    if (rid) h.set(CORRELATION_HEADER, rid);
    const record = new NatsRecordBuilder(payload).setHeaders(h).build();
    const ms = options.timeoutMs ?? this.defaultTimeoutMs;
    try {
      return await firstValueFrom(this.client.send<RpcReply<S>>(this.namespace.subject(subject), record).pipe(timeout(ms)));
    } catch (err) {
      throw toDomainError(err, subject, ms);
    }
  }

  /** Fire-and-forget notification (core NATS, not durable: use the outbox for domain events). */
  emit(subject: string, payload: unknown): void {
    this.client.emit(this.namespace.subject(subject), payload).subscribe({ error: () => undefined });
  }
}

function toDomainError(err: unknown, subject: string, ms: number): DomainError {
  if (isErrorEnvelope(err)) return DomainError.fromEnvelope(err);
  if (err instanceof TimeoutError) {
    return new DomainError(ErrorCode.TIMEOUT, `the service behind ${subject} did not answer within ${ms} ms`);
  }
  const message = err instanceof Error ? err.message : String((err as { message?: unknown })?.message ?? err);
  if (/no subscribers|Empty response|503|NO_RESPONDERS/i.test(message)) {
    return new DomainError(ErrorCode.UNAVAILABLE, `no service is answering ${subject}`);
  }
  if (/CONNECTION_CLOSED|CONNECTION_REFUSED|disconnect|closed/i.test(message)) {
    return new DomainError(ErrorCode.UNAVAILABLE, `the message bus is not reachable (${subject})`);
  }
  return new DomainError(ErrorCode.INTERNAL, `call to ${subject} failed: ${message}`);
}
