import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { SecretBox } from '@cairn/platform';
import { HOOKS_SETTINGS, type HooksSettings } from '../config/hooks-settings.js';
import { nextRetryDelayMs, parseRetryAfter } from './backoff.js';
import { DeliveriesRepository, type DeliveryClaim } from './deliveries.repository.js';
import { DeliveryQueue } from './delivery-queue.js';
import { maskHeaders } from './header-mask.js';
import { HttpSender, MAX_RECORDED_BODY, type SendResult } from './http-sender.js';
import { judge } from './outcome.js';
import { parseHostMatchList } from '../ssrf/host-matcher.js';
import { buildDeliveryRequest } from './request-builder.js';

export const USER_AGENT = 'Cairn-Hookshot/1.0';

/** How long a claim holds beyond the delivery timeout before another worker may take the attempt over. */
const LEASE_MARGIN_MS = 10_000;

/**
 * One attempt of one delivery: claim it, build and sign the request from the reloaded rows, send it, record the
 * attempt and the delivery's new state together, and schedule the next attempt for a transient failure.
 */
@Injectable()
export class DeliveryAttemptService implements OnApplicationShutdown {
  private readonly logger = new Logger('DeliveryAttempt');
  private readonly sender: HttpSender;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly queue: DeliveryQueue,
    private readonly box: SecretBox,
    @Inject(HOOKS_SETTINGS) private readonly settings: HooksSettings,
  ) {
    this.sender = new HttpSender({
      allowedHosts: parseHostMatchList(settings.allowedHostList),
      timeoutMs: settings.deliverTimeoutMs,
      skipTlsVerify: settings.skipTlsVerify,
      maxSockets: settings.deliverConcurrency,
    });
  }

  /** Runs attempt `attempt` of a delivery; returns what happened (`skipped` when it is not this job's turn). */
  async run(deliveryId: number, attempt: number): Promise<'skipped' | 'delivered' | 'retry' | 'failed'> {
    const claim = await this.deliveries.claim(deliveryId, attempt, this.settings.deliverTimeoutMs + LEASE_MARGIN_MS);
    if (!claim) return 'skipped';
    const { delivery } = claim;
    const hook = delivery.hook;
    const startedAt = new Date();

    let secret: string;
    let authorization: string;
    try {
      secret = this.box.openOptional(hook.secretSealed);
      authorization = this.box.openOptional(hook.authorizationSealed);
    } catch {
      this.logger.error(`hook ${hook.id}: its secret cannot be decrypted (was [security] SECRET_KEY changed?)`);
      await this.record(claim, startedAt, { url: hook.url, method: 'POST', headers: {}, body: '' }, {
        error: 'the hook secret cannot be decrypted with the current [security] SECRET_KEY',
        errorKind: 'invalid',
        durationMs: 0,
      });
      return 'failed';
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
    return this.record(
      claim,
      startedAt,
      { url: request.url, method: request.method, headers: request.headers, body: request.body.toString('utf8') },
      result,
    );
  }

  private async record(
    claim: DeliveryClaim,
    startedAt: Date,
    request: { url: string; method: string; headers: Record<string, string>; body: string },
    result: SendResult,
  ): Promise<'skipped' | 'delivered' | 'retry' | 'failed'> {
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
