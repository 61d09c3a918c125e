import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { SecretBox, webhookDeliveries } from '@cairn/platform';
import { Semaphore } from '../common/semaphore.js';
import { HOOKS_SETTINGS, type HooksSettings } from '../config/hooks-settings.js';
import { nextRetryDelayMs, parseRetryAfter } from './backoff.js';
import { DeliveriesRepository, type DeliveryClaim } from './deliveries.repository.js';
import { DeliveryQueue } from './delivery-queue.js';
import { maskHeaders } from '../common/header-mask.js';
import { OpenedSecrets } from './opened-secrets.js';
import { HttpSender, MAX_RECORDED_BODY, type SendResult } from './http-sender.js';
import { judge } from './outcome.js';
import { parseHostMatchList } from '../ssrf/host-matcher.js';
import { buildDeliveryRequest } from './request-builder.js';

export const USER_AGENT = 'Cairn-Hookshot/1.0';

interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

interface SentAttempt {
  claim: DeliveryClaim;
  startedAt: Date;
  request: RecordedRequest;
  result: SendResult;
}

/** An attempt that was not started because the service is stopping: its job runs again (here or elsewhere). */
export class AttemptNotStartedError extends Error {
  constructor(deliveryId: number, attempt: number) {
    super(`delivery ${deliveryId} attempt ${attempt} not started: hooks-service is stopping`);
  }
}

/** How long a claim holds beyond the delivery timeout before another worker may take the attempt over. */
const LEASE_MARGIN_MS = 10_000;

// An attempt waiting for its concurrency turn has claimed nothing yet, so no lease runs out while it waits.
@Injectable()
export class DeliveryAttemptService implements OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryAttempt');
  private readonly sender: HttpSender;
  private readonly inFlight: Semaphore;
  private readonly secrets: OpenedSecrets;
  private stopping = false;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: DeliveryQueue,
    box: SecretBox,
    @Inject(HOOKS_SETTINGS) private readonly settings: HooksSettings,
  ) {
    this.sender = new HttpSender({
      allowedHosts: parseHostMatchList(settings.allowedHostList),
      timeoutMs: settings.deliverTimeoutMs,
      skipTlsVerify: settings.skipTlsVerify,
      maxSockets: settings.deliverConcurrency,
    });
    this.inFlight = new Semaphore(settings.deliverConcurrency);
    this.secrets = new OpenedSecrets(box);
  }

  /** `skipped` when it is not this job's turn; rejects with {@link AttemptNotStartedError} once stopping began. */
  async run(deliveryId: number, attempt: number): Promise<'skipped' | 'delivered' | 'retry' | 'failed'> {
    const release = await this.inFlight.acquire();
    let sent: SentAttempt | null;
    try {
      if (this.stopping) throw new AttemptNotStartedError(deliveryId, attempt);
      sent = await this.claimAndSend(deliveryId, attempt);
    } finally {
      release();
    }
    return sent ? this.record(sent) : 'skipped';
  }

  /** Attempts not claimed yet are not started: stopping waits for the requests in flight only. */
  stopStarting(): void {
    this.stopping = true;
  }

  private async claimAndSend(deliveryId: number, attempt: number): Promise<SentAttempt | null> {
    const claim = await this.deliveries.claim(deliveryId, attempt, this.settings.deliverTimeoutMs + LEASE_MARGIN_MS);
    if (!claim) return null;
    const { delivery } = claim;
    const hook = delivery.hook;
    const startedAt = new Date();

    let secret: string;
    let authorization: string;
    try {
      secret = this.secrets.open(hook.secretSealed);
      authorization = this.secrets.open(hook.authorizationSealed);
    } catch {
      this.logger.error(`hook ${hook.id}: its secret cannot be decrypted (was [security] SECRET_KEY changed?)`);
      return {
        claim,
        startedAt,
        request: { url: hook.url, method: 'POST', headers: {}, body: '' },
        result: {
          error: 'the hook secret cannot be decrypted with the current [security] SECRET_KEY',
          errorKind: 'invalid',
          durationMs: 0,
        },
      };
    }

    const request = buildDeliveryRequest({
      guid: delivery.guid,
      hookId: hook.id,
      type: hook.type,
      url: hook.url,
      contentType: hook.contentType,
      payload: delivery.payload,
      event: delivery.event,
      eventType: delivery.eventType,
      secret,
      authorization,
      targetType: hook.repoId ? 'repository' : hook.ownerId ? 'organization' : 'system',
      targetId: hook.repoId || hook.ownerId,
      userAgent: USER_AGENT,
    });
    const result = await this.sender.send(request);
    return {
      claim,
      startedAt,
      request: { url: request.url, method: request.method, headers: request.headers, body: request.body.toString('utf8') },
      result,
    };
  }

  private async record({ claim, startedAt, request, result }: SentAttempt): Promise<'skipped' | 'delivered' | 'retry' | 'failed'> {
    const { delivery, attempt } = claim;
    const verdict = judge(result);
    const inRound = attempt - delivery.roundStart;
    const retry = !verdict.delivered && verdict.transient && inRound < this.settings.maxAttempts;
    const delayMs = retry
      ? nextRetryDelayMs(inRound, {
          baseMs: this.settings.retryBaseDelayMs,
          maxMs: this.settings.retryMaxDelayMs,
          retryAfterMs: parseRetryAfter(result.headers?.['retry-after']),
        })
      : 0;
    const outcome = verdict.delivered ? 'delivered' : retry ? 'retry' : 'failed';
    const recorded = await this.deliveries.finish(
      claim,
      {
        redelivery: delivery.redelivery,
        url: request.url,
        method: request.method,
        requestHeaders: maskHeaders(request.headers),
        requestBody: request.body.slice(0, MAX_RECORDED_BODY),
        responseStatus: result.status ?? null,
        responseHeaders: result.headers ?? null,
        responseBody: result.body ?? null,
        error: result.error ?? null,
        outcome,
        durationMs: result.durationMs,
        startedAt,
      },
      {
        status: outcome === 'delivered' ? 'delivered' : outcome === 'retry' ? 'retrying' : 'failed',
        delayMs,
      },
    );
    if (!recorded) {
      this.logger.warn(`delivery ${delivery.id} attempt ${attempt}: claim lost to another worker, result dropped`);
      return 'skipped';
    }
    webhookDeliveries.inc({ outcome: outcome === 'retry' ? 'retrying' : outcome });
    if (retry) await this.queue.enqueue([{ deliveryId: delivery.id, attempt: attempt + 1, delayMs }]);
    if (outcome === 'failed') {
      this.logger.warn(`delivery ${delivery.id} (hook ${delivery.hookId}) failed after attempt ${attempt}: ${verdict.status}`);
    }
    return outcome;
  }

  onApplicationShutdown(): void {
    this.sender.close();
  }
}
