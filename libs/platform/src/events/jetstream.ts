import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient, type JsMsg,
} from '@nats-io/jetstream';
import { EVENTS_STREAM, EVENTS_STREAM_SUBJECTS, type AnyDomainEvent, type DomainEvent } from '@cairn/contracts';
import { Logger } from '@nestjs/common';
import { withCorrelationId } from '../logging/correlation.js';
import { recordDeadLetter } from '../metrics/dead-letters.js';
import { watchConsumerLag } from './consumer-lag.js';
import { NatsNamespace } from '../nats/nats-namespace.js';
import type { NatsConnectOptions } from '../nats/nats-connection-options.js';
import { SpanKind, contextFrom, inSpan } from '../tracing/trace-context.js';
import { natsTraceHeaders } from '../tracing/nats-trace.js';

const NANOS_PER_MS = 1_000_000;

const namespaces = new WeakMap<NatsConnection, NatsNamespace>();

/** For connections not made here. */
export function namespaceOf(nc: NatsConnection): NatsNamespace {
  return namespaces.get(nc) ?? NatsNamespace.none;
}

/** Separate from Nest's request-reply transport. */
export async function connectNats(
  connection: string | NatsConnectOptions,
  name: string,
  namespace: NatsNamespace = NatsNamespace.none,
): Promise<NatsConnection> {
  const base = typeof connection === 'string' ? { servers: connection.split(',') } : connection;
  const nc = await connect({ ...base, name, maxReconnectAttempts: -1 });
  namespaces.set(nc, namespace);
  return nc;
}

/** Idempotent; every publisher and consumer calls it at start. */
export async function ensureEventsStream(nc: NatsConnection): Promise<void> {
  const ns = namespaceOf(nc);
  const stream = ns.name(EVENTS_STREAM);
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.info(stream);
  } catch {
    try {
      await jsm.streams.add({
        name: stream,
        subjects: EVENTS_STREAM_SUBJECTS.map((s) => ns.subject(s)),
        // De-duplicates re-publishes of the same outbox row (msgID = event id) after a crash.
        duplicate_window: 120_000 * NANOS_PER_MS,
        max_age: 7 * 24 * 3_600_000 * NANOS_PER_MS,
      });
    } catch (err) {
      await jsm.streams.info(stream).catch(() => {
        throw err;
      });
    }
  }
}

/** `msgID` = event id so the server drops a repeat within the window. */
export async function publishEvent(
  js: JetStreamClient,
  event: DomainEvent,
  namespace: NatsNamespace = NatsNamespace.none,
  traceparent?: string | null,
): Promise<void> {
  await inSpan(
    `publish ${event.type}`,
    { kind: SpanKind.PRODUCER, parent: contextFrom(traceparent), attributes: eventSpanAttributes(event) },
    async () => {
      await js.publish(namespace.subject(event.type), JSON.stringify(event), { msgID: event.id, headers: natsTraceHeaders() });
    },
  );
}

function eventSpanAttributes(event: DomainEvent) {
  return { 'messaging.system': 'nats', 'messaging.destination.name': event.type, 'messaging.message.id': event.id };
}

export interface DurableConsumerOptions {
  /** Replicas split the messages; give plain names, the namespace is applied. */
  durable: string;
  /** NATS before 2.10 (Debian ships 2.9) accepts one filter subject per consumer: use a wildcard such as `repo.evt.>`. */
  subjects: [string];
  /** Must be idempotent (dedupe on `event.id`). */
  handle: (event: AnyDomainEvent) => Promise<void>;
  /** Doubles with every try, up to 5 minutes. */
  retryDelayMs?: number;
  /** The last failure dead-letters it. */
  maxDeliver?: number;
}

/** How long a delivered event may go unacknowledged before JetStream delivers it again. */
const EVENT_ACK_WAIT_MS = 30_000;

/** With the doubling delay about 1.5 hours: an outage is waited out, a poison event stops. */
export const EVENT_MAX_DELIVER = 20;
export const EVENT_MAX_RETRY_DELAY_MS = 300_000;

export function eventRetryDelayMs(delivery: number, firstDelayMs = 2_000): number {
  return Math.min(firstDelayMs * 2 ** Math.min(Math.max(delivery - 1, 0), 20), EVENT_MAX_RETRY_DELAY_MS);
}

/** Acked only after the handler succeeded (a crash means redelivery, never loss); in-flight handlers finish on stop. */
export async function consumeEvents(nc: NatsConnection, opts: DurableConsumerOptions): Promise<() => Promise<void>> {
  const logger = new Logger(`consumer:${opts.durable}`);
  await ensureEventsStream(nc);
  const jsm = await jetstreamManager(nc);
  const ns = namespaceOf(nc);
  const stream = ns.name(EVENTS_STREAM);
  const durable = ns.name(opts.durable);
  const filter = ns.subject(opts.subjects[0]);
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filter,
    ack_wait: EVENT_ACK_WAIT_MS * NANOS_PER_MS,
    max_ack_pending: 1000,
    max_deliver: opts.maxDeliver ?? EVENT_MAX_DELIVER,
  };
  try {
    await jsm.consumers.info(stream, durable);
    await jsm.consumers.update(stream, durable, {
      filter_subject: filter,
      ack_wait: config.ack_wait,
      max_deliver: config.max_deliver,
    });
  } catch {
    await jsm.consumers.add(stream, config).catch(async (err) => {
      await jsm.consumers.info(stream, durable).catch(() => {
        throw err;
      });
    });
  }
  const consumer = await jetstream(nc).consumers.get(stream, durable);
  const stopLag = watchConsumerLag(opts.durable, () => jsm.consumers.info(stream, durable));
  const messages = await consumer.consume({ max_messages: 100 });
  // One event at a time; stopping waits for the loop, so for the event in hand too.
  const loop = (async () => {
    for await (const msg of messages) await handleOne(msg, opts, logger);
  })();
  return async () => {
    stopLag();
    await messages.close();
    await loop.catch(() => undefined);
  };
}

async function handleOne(msg: JsMsg, opts: DurableConsumerOptions, logger: Logger): Promise<void> {
  let event: AnyDomainEvent;
  try {
    event = msg.json<AnyDomainEvent>();
  } catch {
    recordDeadLetter('event', opts.durable, `message ${msg.seq} on ${msg.subject}`, 'not JSON');
    msg.ack();
    return;
  }
  try {
    // Continues the trace of the transaction that wrote the event.
    await inSpan(
      `consume ${event.type}`,
      {
        kind: SpanKind.CONSUMER,
        parent: contextFrom(msg.headers),
        attributes: { ...eventSpanAttributes(event), 'cairn.consumer': opts.durable },
      },
      () => withCorrelationId(event.id, () => opts.handle(event)),
    );
    msg.ack();
  } catch (err) {
    const message = (err as Error).message;
    const delivery = msg.info.deliveryCount;
    if (delivery >= (opts.maxDeliver ?? EVENT_MAX_DELIVER)) {
      recordDeadLetter('event', opts.durable, `event ${event.type} ${event.id} after ${delivery} deliveries`, message);
      // Acked once recorded: nats-server 2.9 counts a terminated message as pending until its ack_wait ran out.
      msg.ack();
      return;
    }
    const delay = eventRetryDelayMs(delivery, opts.retryDelayMs);
    logger.warn(`event ${event.type} ${event.id} failed (delivery ${delivery}), retrying in ${delay} ms: ${message}`);
    msg.nak(delay);
  }
}
