import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamClient, type JsMsg,
} from '@nats-io/jetstream';
import { EVENTS_STREAM, EVENTS_STREAM_SUBJECTS, type DomainEvent } from '@cairn/contracts';
import { Logger } from '@nestjs/common';
import { withCorrelationId } from '../logging/correlation.js';

const NANOS_PER_MS = 1_000_000;

/** A NATS connection for JetStream work (separate from Nest's request-reply transport). */
export async function connectNats(servers: string, name: string): Promise<NatsConnection> {
  return connect({ servers: servers.split(','), name, maxReconnectAttempts: -1 });
}

/** Creates the events stream if missing (idempotent; every publisher and consumer calls it at start). */
export async function ensureEventsStream(nc: NatsConnection): Promise<void> {
  const jsm = await jetstreamManager(nc);
  try {
    await jsm.streams.info(EVENTS_STREAM);
  } catch {
    try {
      await jsm.streams.add({
        name: EVENTS_STREAM,
        subjects: EVENTS_STREAM_SUBJECTS,
        // De-duplicates re-publishes of the same outbox row (msgID = event id) after a crash.
        duplicate_window: 120_000 * NANOS_PER_MS,
        max_age: 7 * 24 * 3_600_000 * NANOS_PER_MS,
      });
    } catch (err) {
      // Another process created it at the same moment.
      await jsm.streams.info(EVENTS_STREAM).catch(() => {
        throw err;
      });
    }
  }
}

/** Publishes one event to JetStream; `msgID` = event id so a repeat within the window is dropped by the server. */
export async function publishEvent(js: JetStreamClient, event: DomainEvent): Promise<void> {
  await js.publish(event.type, JSON.stringify(event), { msgID: event.id });
}

export interface DurableConsumerOptions {
  /** Durable consumer name: one per consuming service (replicas share it and split the messages). */
  durable: string;
  /**
   * Event subjects to receive (wildcards allowed). NATS servers before 2.10 (Debian ships 2.9) accept only one
   * filter subject per consumer, so give one subject — a wildcard such as `repo.evt.>` covers several.
   */
  subjects: [string];
  /** Handles one event; throw to have it redelivered later. Must be idempotent (dedupe on `event.id`). */
  handle: (event: DomainEvent) => Promise<void>;
  /** How long a message may be in processing before JetStream redelivers it. */
  ackWaitMs?: number;
  /** Delay before a failed event is tried again. */
  retryDelayMs?: number;
}

/**
 * Consumes events durably: each is acknowledged only after its handler succeeded, so a crash means redelivery,
 * never loss. Returns a function that stops consuming (in-flight handlers finish first).
 */
export async function consumeEvents(nc: NatsConnection, opts: DurableConsumerOptions): Promise<() => Promise<void>> {
  const logger = new Logger(`consumer:${opts.durable}`);
  await ensureEventsStream(nc);
  const jsm = await jetstreamManager(nc);
  const [filter] = opts.subjects;
  const config = {
    durable_name: opts.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: filter,
    ack_wait: (opts.ackWaitMs ?? 30_000) * NANOS_PER_MS,
    max_ack_pending: 1000,
  };
  try {
    await jsm.consumers.info(EVENTS_STREAM, opts.durable);
    await jsm.consumers.update(EVENTS_STREAM, opts.durable, {
      filter_subject: filter,
      ack_wait: config.ack_wait,
    });
  } catch {
    await jsm.consumers.add(EVENTS_STREAM, config).catch(async (err) => {
      await jsm.consumers.info(EVENTS_STREAM, opts.durable).catch(() => {
        throw err;
      });
    });
  }
  const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM, opts.durable);
  const messages = await consumer.consume({ max_messages: 100 });
  let inFlight = Promise.resolve();
  const loop = (async () => {
    for await (const msg of messages) {
      const work = handleOne(msg, opts, logger);
      inFlight = inFlight.then(() => work);
      await work;
    }
  })();
  return async () => {
    await messages.close();
    await loop.catch(() => undefined);
    await inFlight;
  };
}

async function handleOne(msg: JsMsg, opts: DurableConsumerOptions, logger: Logger): Promise<void> {
  let event: DomainEvent;
  try {
    event = msg.json<DomainEvent>();
  } catch {
    logger.warn(`dropping unparsable message on ${msg.subject}`);
    msg.term();
    return;
  }
  try {
    await withCorrelationId(event.id, () => opts.handle(event));
    msg.ack();
  } catch (err) {
    logger.warn(`event ${event.type} ${event.id} failed, will retry: ${(err as Error).message}`);
    msg.nak(opts.retryDelayMs ?? 2_000);
  }
}
