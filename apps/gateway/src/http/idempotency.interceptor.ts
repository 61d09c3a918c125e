import {
  BadRequestException, ConflictException, Injectable, ServiceUnavailableException, UnprocessableEntityException,
  type CallHandler, type ExecutionContext, type NestInterceptor,
} from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { getAuthState } from '../auth/request-context.js';
import { IdempotencyStore } from './idempotency.store.js';

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on an answer replayed from the store (the name Stripe uses). */
const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** A body the gateway streams on unread (an attachment upload): there is nothing to fingerprint before it is stored. */
function streamedBody(req: FastifyRequest): boolean {
  if (req.body !== undefined) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

function fingerprint(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(body ?? null)).digest('hex');
}

/** IETF httpapi draft, as Stripe: a retry with the same body replays the answer; 409 while running; other body 422. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const key = req.headers[IDEMPOTENCY_KEY_HEADER];
    const actor = getAuthState(req).actor;
    if (req.method !== 'POST' || key === undefined || !actor) return next.handle();
    if (typeof key !== 'string' || !VALID_KEY.test(key)) {
      throw new BadRequestException('Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    // Replaying the first answer to another file would be wrong, and the file cannot be compared before it is kept.
    if (streamedBody(req)) {
      throw new UnprocessableEntityException('Idempotency-Key is not supported on a streamed upload (its body is not read before it is stored)');
    }
    return from(this.run(req, http.getResponse<FastifyReply>(), actor.id, key, next));
  }

  private async run(req: FastifyRequest, reply: FastifyReply, userId: number, key: string, next: CallHandler) {
    const redisKey = this.store.redisKey(userId, req.method, req.url, key);
    const print = fingerprint(req.body);
    if (!(await this.unavailableAsError(() => this.store.claim(redisKey, print)))) {
      const record = await this.unavailableAsError(() => this.store.read(redisKey));
      if (record && record.fingerprint !== print) {
        throw new UnprocessableEntityException('Idempotency-Key was already used with a different request body');
      }
      if (!record || record.state === 'running') {
        reply.header('retry-after', '1');
        throw new ConflictException('a request with this Idempotency-Key is still being processed; retry later');
      }
      reply.header(IDEMPOTENT_REPLAY_HEADER, 'true').status(record.status);
      return record.body;
    }
    let body: unknown;
    try {
      body = await lastValueFrom(next.handle(), { defaultValue: undefined });
    } catch (err) {
      await this.store.release(redisKey).catch(() => undefined);
      throw err;
    }
    await this.store.complete(redisKey, print, reply.statusCode, body).catch(() => undefined);
    return body;
  }

  private async unavailableAsError<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch {
      throw new ServiceUnavailableException('Idempotency-Key cannot be honoured now (its store is unavailable); retry later');
    }
  }
}
