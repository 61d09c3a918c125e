import { createServer as createHttp1Server, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer as createNetServer, type Socket } from 'node:net';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import { create, fromBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, createConnectRouter, type ConnectRouter, type Interceptor } from '@connectrpc/connect';
import type { UniversalHandler, UniversalServerRequest } from '@connectrpc/connect/protocol';
import {
  compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse,
} from '@connectrpc/connect-node';
import { INTERNAL_HEADERS, RUNNER_PROTOCOL_MAX_BODY_BYTES, RUNNER_PROTOCOL_PREFIX } from '@cairn/contracts';
import { COMMON_SETTINGS, internalTokenMatches, type CommonSettings, listenOn } from '@cairn/platform';
import { RUNNERS_SETTINGS, type RunnersSettings } from '../config/runners-settings.js';
import { PingResponseSchema } from './gen/ping/v1/messages_pb.js';
import { PingService } from './gen/ping/v1/services_pb.js';
import { RunnerService } from './gen/runner/v1/services_pb.js';
import { RunnerProtocolService } from './runner-protocol.service.js';

/** HTTP/2's connection preface: a connection starting with it speaks h2c (prior knowledge). */
const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');

const logger = new Logger('RunnerProtocol');

/** Failures that are not the protocol's own answers reach the runner as a bare `internal`, never their details. */
const hideInternalErrors: Interceptor = (next) => async (req) => {
  try {
    return await next(req);
  } catch (err) {
    if (err instanceof ConnectError) throw err;
    logger.error(`${req.method.name} failed: ${(err as Error)?.message ?? String(err)}`);
    throw new ConnectError('internal error', Code.Internal);
  }
};

export function runnerProtocolRoutes(service: RunnerProtocolService): (router: ConnectRouter) => void {
  return (router) => {
    router.service(PingService, {
      ping: (req) => create(PingResponseSchema, { data: `Hello, ${req.data}!` }),
    });
    router.service(RunnerService, {
      register: (req) => service.register(req),
      declare: (req, ctx) => service.declare(req, ctx),
      fetchTask: (req, ctx) => service.fetchTask(req, ctx),
      updateTask: (req, ctx) => service.updateTask(req, ctx),
      updateLog: (req, ctx) => service.updateLog(req, ctx),
    });
  };
}

type AnyRequest = IncomingMessage | Http2ServerRequest;
type AnyResponse = ServerResponse | Http2ServerResponse;

function connectErrorAnswer(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code, message }));
}

// Read whole before Connect so a malformed message is `invalid_argument` (as Gitea's connect-go), not `internal`.
async function readBody(body: AsyncIterable<Uint8Array>, max: number): Promise<Uint8Array | null> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

// Connect over HTTP/1.1 and h2c on one port (told apart by the HTTP/2 preface); called only by the gateway.
export class RunnerProtocolServer {
  private readonly logger = new Logger('RunnerProtocolHttp');
  private readonly http1;
  private readonly http2;
  private readonly server;
  private readonly sockets = new Set<Socket>();

  constructor(service: RunnerProtocolService, internalToken: string) {
    const router = createConnectRouter({
      readMaxBytes: RUNNER_PROTOCOL_MAX_BODY_BYTES,
      interceptors: [hideInternalErrors],
      acceptCompression: [compressionGzip, compressionBrotli],
      grpc: false,
      grpcWeb: false,
    });
    runnerProtocolRoutes(service)(router);
    const handlers = new Map(router.handlers.map((h) => [`${RUNNER_PROTOCOL_PREFIX}${h.requestPath}`, h]));
    const handle = (req: AnyRequest, res: AnyResponse) => {
      const out = res as ServerResponse;
      if (!internalTokenMatches(req.headers[INTERNAL_HEADERS.token], internalToken)) {
        out.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' });
        out.end('forbidden\n');
        return;
      }
      const handler = handlers.get((req.url ?? '').split('?', 1)[0]);
      if (!handler) {
        out.writeHead(404);
        out.end();
        return;
      }
      this.serve(handler, req as IncomingMessage, out).catch((err: unknown) => {
        if (ConnectError.from(err).code === Code.Aborted) return;
        this.logger.error(`${handler.method.name} failed: ${(err as Error)?.message ?? String(err)}`);
        if (!out.headersSent) connectErrorAnswer(out, 500, 'internal', 'internal error');
        else out.destroy();
      });
    };
    this.http1 = createHttp1Server(handle);
    // Long-polls are bounded by the handler; headers must come promptly.
    this.http1.requestTimeout = 0;
    this.http1.headersTimeout = 60_000;
    this.http1.keepAliveTimeout = 65_000;
    this.http2 = createHttp2Server(handle);
    // No Nagle delay: a Connect answer is written as headers, then body.
    this.server = createNetServer({ noDelay: true, keepAlive: true }, (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      socket.once('readable', () => this.dispatch(socket));
    });
  }

  private async serve(handler: UniversalHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let request: UniversalServerRequest = universalRequestFromNodeRequest(req, res, undefined, undefined);
    const plainBinary = req.method === 'POST' && req.headers['content-type'] === 'application/proto' && !req.headers['content-encoding'];
    if (plainBinary && handler.method.methodKind === 'unary') {
      const bytes = await readBody(request.body as AsyncIterable<Uint8Array>, RUNNER_PROTOCOL_MAX_BODY_BYTES);
      if (!bytes) {
        return connectErrorAnswer(res, 429, 'resource_exhausted', `message larger than ${RUNNER_PROTOCOL_MAX_BODY_BYTES} bytes`);
      }
      try {
        fromBinary(handler.method.input, bytes);
      } catch (err) {
        return connectErrorAnswer(res, 400, 'invalid_argument', `cannot decode ${handler.method.input.typeName}: ${(err as Error).message}`);
      }
      request = { ...request, body: (async function* () { yield bytes; })() };
    }
    await universalResponseToNodeResponse(await handler(request), res);
  }

  private dispatch(socket: Socket): void {
    const head = (socket.read(H2_PREFACE.length) ?? socket.read()) as Buffer | null;
    if (head === null) {
      socket.once('readable', () => this.dispatch(socket));
      return;
    }
    socket.unshift(head);
    const n = Math.min(head.length, H2_PREFACE.length);
    const h2 = head.subarray(0, n).equals(H2_PREFACE.subarray(0, n));
    (h2 ? this.http2 : this.http1).emit('connection', socket);
  }

  listen(port: number, host: string): Promise<number> {
    return listenOn(this.server, port, host);
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.http1.closeIdleConnections();
    const force = setTimeout(() => {
      for (const s of this.sockets) s.destroy();
    }, 5_000);
    force.unref();
    await closed;
    clearTimeout(force);
    this.logger.log('runner protocol endpoint closed');
  }
}

export async function startRunnerProtocol(app: INestApplicationContext): Promise<() => Promise<void>> {
  const common = app.get<CommonSettings>(COMMON_SETTINGS);
  const settings = app.get<RunnersSettings>(RUNNERS_SETTINGS);
  const server = new RunnerProtocolServer(app.get(RunnerProtocolService), common.internalToken);
  const port = await server.listen(common.runnersInternalPort, settings.internalHost);
  new Logger('RunnerProtocolHttp').log(`runner protocol (HTTP/1.1, h2c) listening on ${settings.internalHost}:${port}`);
  return () => server.close();
}
