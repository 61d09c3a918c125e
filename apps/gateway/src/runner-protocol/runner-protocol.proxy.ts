import type { IncomingMessage } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import {
  INTERNAL_HEADERS, RUNNER_PROTOCOL_MAX_BODY_BYTES, RUNNER_PROTOCOL_PREFIX, RUNNER_PROTOCOL_REQUEST_HEADERS,
} from '@cairn/contracts';
import { COMMON_SETTINGS, CORRELATION_HEADER, type CommonSettings } from '@cairn/platform';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forwardedResponseHeaders, InternalEndpoint } from '../http/internal-endpoint.js';


/** Fails the stream once more than `max` bytes went through (the request body bound). */
class ByteLimit extends Transform {
  private seen = 0;
  exceeded = false;

  constructor(private readonly max: number) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.max) {
      this.exceeded = true;
      done(new Error('request body too large'));
      return;
    }
    done(null, chunk);
  }
}

function plain(raw: FastifyReply['raw'], status: number, message: string): void {
  if (raw.headersSent) {
    raw.destroy();
    return;
  }
  raw.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
  raw.end(`${message}\n`);
}

/** Streamed to runners-service (which authenticates runners) and back; only Connect's and runner headers go on. */
export class RunnerProtocolProxy {
  private readonly logger = new Logger('RunnerProtocol');
  private readonly endpoint: InternalEndpoint;

  constructor(private readonly common: CommonSettings) {
    const url = common.runnersInternalUrl;
    this.endpoint = new InternalEndpoint(url);
  }

  handle(req: FastifyRequest, reply: FastifyReply): void {
    const raw = reply.raw;
    reply.hijack();
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > RUNNER_PROTOCOL_MAX_BODY_BYTES) {
      plain(raw, 413, `request body too large: at most ${RUNNER_PROTOCOL_MAX_BODY_BYTES} bytes`);
      return;
    }
    const headers: Record<string, string | string[]> = {
      [INTERNAL_HEADERS.token]: this.common.internalToken,
      [CORRELATION_HEADER]: String(req.id),
    };
    for (const name of RUNNER_PROTOCOL_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (value !== undefined) headers[name] = value;
    }

    const upstream = this.endpoint.request(req.url, req.method, headers);
    upstream.on('response', (res: IncomingMessage) => {
      const out = forwardedResponseHeaders(res, String(req.id));
      raw.writeHead(res.statusCode ?? 502, out);
      pipeline(res, raw).catch(() => raw.destroy());
    });
    upstream.on('error', (err: Error) => {
      if (!raw.headersSent) this.logger.error(`runners-service protocol endpoint unreachable: ${err.message}`);
      plain(raw, 503, 'runner service unavailable');
    });
    // The runner went away (a long-poll given up): end the upstream call too.
    raw.on('close', () => {
      if (!raw.writableFinished) upstream.destroy();
    });
    if (req.method === 'GET' || req.method === 'HEAD') {
      upstream.end();
      return;
    }
    const limit = new ByteLimit(RUNNER_PROTOCOL_MAX_BODY_BYTES);
    pipeline(req.raw, limit, upstream).catch(() => {
      upstream.destroy();
      if (limit.exceeded) plain(raw, 413, `request body too large: at most ${RUNNER_PROTOCOL_MAX_BODY_BYTES} bytes`);
    });
  }
}

export function registerRunnerProtocolRoutes(fastify: FastifyInstance, app: INestApplicationContext): void {
  mountRunnerProtocolRoutes(fastify, new RunnerProtocolProxy(app.get<CommonSettings>(COMMON_SETTINGS)));
}

export function mountRunnerProtocolRoutes(fastify: FastifyInstance, proxy: RunnerProtocolProxy): void {
  void fastify.register(async (scope) => {
    // Connect's JSON and binary bodies alike are streamed, never parsed here.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    scope.all(`${RUNNER_PROTOCOL_PREFIX}/*`, (req, reply) => proxy.handle(req, reply));
  });
}
