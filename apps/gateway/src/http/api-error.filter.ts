import { Catch, HttpException, Inject, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { DomainError, ErrorCode, httpStatusForErrorCode } from '@cairn/contracts';
import { COMMON_SETTINGS, CORRELATION_HEADER, type CommonSettings } from '@cairn/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { describeBodyTooLarge } from './json-body.js';
import { setRetryAfter } from './retry-after.js';

/** Gitea's error body: `{ message, url }`, plus `errors` for field-level problems. */
export interface ApiErrorBody {
  message: string;
  url: string;
  errors?: string[];
}

/** Domain errors by their code, Nest HTTP exceptions by status, anything else a 500 that never leaks internals. */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiErrorFilter');
  private readonly docsUrl: string;

  constructor(@Inject(COMMON_SETTINGS) settings: CommonSettings) {
    this.docsUrl = `${settings.rootUrl}api/swagger`;
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const req = http.getRequest<FastifyRequest>();
    const { status, body } = this.toResponse(exception, req);
    setRetryAfter(reply, exception);
    if (status === 401 && !reply.hasHeader('www-authenticate') && req.url.includes('.git/')) {
      reply.header('www-authenticate', 'Basic realm="Cairn"');
    }
    void reply.status(status).send(body);
  }

  toResponse(exception: unknown, req?: FastifyRequest): { status: number; body: ApiErrorBody } {
    // Fastify's own 413 says neither the limit nor which one: say both (Nest hands it over wrapped, as the cause).
    const fastifyCode = (exception as { code?: unknown })?.code ?? (exception as { cause?: { code?: unknown } })?.cause?.code;
    if (fastifyCode === 'FST_ERR_CTP_BODY_TOO_LARGE') exception = describeBodyTooLarge(req);
    if (exception instanceof DomainError) {
      const status = httpStatusForErrorCode(exception.code);
      if (exception.code === ErrorCode.INTERNAL) return this.internal(exception, req, exception.errorId);
      return { status, body: this.body(exception.message, exception.details) };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const res = exception.getResponse();
      if (typeof res === 'string') return { status, body: this.body(res) };
      const r = res as { message?: string | string[]; errors?: string[] };
      if (Array.isArray(r.message)) return { status, body: this.body('invalid request', r.message) };
      return { status, body: this.body(r.message ?? exception.message, r.errors) };
    }
    const statusCode = (exception as { statusCode?: unknown })?.statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      // Fastify's own client errors (unsupported media type, body too large, …).
      return { status: statusCode, body: this.body((exception as Error).message) };
    }
    return this.internal(exception, req);
  }

  private internal(exception: unknown, req?: FastifyRequest, errorId: string = randomUUID()) {
    const rid = req?.headers[CORRELATION_HEADER];
    this.logger.error(
      `${req?.method ?? ''} ${req?.routeOptions?.url ?? ''} failed (errorId=${errorId}, rid=${String(rid ?? '')}): ${
        exception instanceof Error ? (exception.stack ?? exception.message) : String(exception)
      }`,
    );
    return { status: 500, body: this.body(`internal server error (error id ${errorId})`) };
  }

  private body(message: string, errors?: string[]): ApiErrorBody {
    return { message, url: this.docsUrl, ...(errors?.length ? { errors } : {}) };
  }
}
