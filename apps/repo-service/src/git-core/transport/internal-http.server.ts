import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Logger } from '@nestjs/common';
import {
  INTERNAL_ARCHIVE_PATH, INTERNAL_ATTACHMENTS_PATH, INTERNAL_GIT_ENDPOINTS, INTERNAL_GIT_PREFIX, INTERNAL_HEADERS, INTERNAL_RAW_PATH,
} from '@cairn/contracts';
import { CORRELATION_HEADER, internalTokenMatches, listenOn, traceHttpExchange, withCorrelationId, withTraceContext } from '@cairn/platform';
import { repoStoragePath } from '@cairn/git';
import { sanitizeGitProtocol, type GitService } from './git-service-request.js';
import { startClientGitService, startGitService, type GitTransportPaths } from './git-process.js';
import { streamRawBlob } from './raw-blob.js';
import { streamBlobById } from './blob-stream.js';
import { isArchiveFormat, streamArchive } from './archive-stream.js';
import { serveAttachment, type AttachmentEndpoint } from './attachment-http.js';

/** `<prefix><owner>/<repo>/<endpoint>` (paths and headers: @cairn/contracts `internal-http.ts`). */
const ROUTE = new RegExp(
  `^${escapeRegExp(INTERNAL_GIT_PREFIX)}([^/]+)/([^/]+)/(${INTERNAL_GIT_ENDPOINTS.map(escapeRegExp).join('|')})$`,
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export interface InternalGitHttpOptions {
  repoRoot: string;
  internalToken: string;
  paths: GitTransportPaths;
  /** Release attachment bytes (absent: those routes answer 404). */
  attachments?: AttachmentEndpoint;
}

export { internalTokenMatches };

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function plain(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
  res.end(`${message}\n`);
}

function noCache(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
    pragma: 'no-cache',
    'cache-control': 'no-cache, max-age=0, must-revalidate',
  };
}

export function pktLine(text: string): string {
  return (Buffer.byteLength(text) + 4).toString(16).padStart(4, '0') + text;
}

/** The route of an internal request with the repository left out (span names stay few): `…/:owner/:repo/info/refs`. */
function routeName(url: string | undefined): string | undefined {
  const pathname = (url ?? '').split('?')[0];
  if (pathname === INTERNAL_RAW_PATH || pathname === INTERNAL_ATTACHMENTS_PATH || pathname === INTERNAL_ARCHIVE_PATH) return pathname;
  const m = ROUTE.exec(pathname);
  return m ? `${INTERNAL_GIT_PREFIX}:owner/:repo/${m[3]}` : undefined;
}

function parseId(value: string | undefined): number | null {
  return value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

// Only the gateway calls it (shared token), having authenticated and authorised the client. Packs stream both ways,
// never buffered; a push's ref updates are journaled and recorded before the response ends (`PushJournals`).
export class InternalGitHttpServer {
  private readonly logger = new Logger('InternalGitHttp');
  private readonly server: Server;

  constructor(private readonly options: InternalGitHttpOptions) {
    this.server = createServer((req, res) => {
      const span = traceHttpExchange(req, res, () => routeName(req.url));
      withTraceContext(span?.context, () =>
        withCorrelationId(header(req, CORRELATION_HEADER), () => {
          this.handle(req, res).catch((err: unknown) => {
            this.logger.error(`internal git request failed: ${(err as Error).message}`);
            plain(res, 500, 'internal error');
          });
        }),
      );
    });
    // Long pushes and clones: no request timeout; the gateway's client connection governs.
    this.server.requestTimeout = 0;
    this.server.headersTimeout = 60_000;
    // Longer than the gateway keeps idle keep-alive sockets, so it rarely reuses one this side is closing.
    this.server.keepAliveTimeout = 65_000;
  }

  listen(port: number, host: string): Promise<number> {
    return listenOn(this.server, port, host);
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    const force = setTimeout(() => this.server.closeAllConnections(), 10_000);
    force.unref();
    await closed;
    clearTimeout(force);
  }

  /** The repository folder named by `?owner=&repo=`, or null once a 400/404 is answered. */
  private async repoDir(q: URLSearchParams, res: ServerResponse): Promise<string | null> {
    let dir: string;
    try {
      dir = repoStoragePath(this.options.repoRoot, q.get('owner') ?? '', q.get('repo') ?? '');
    } catch {
      plain(res, 400, 'invalid repository path');
      return null;
    }
    if (!(await stat(dir).then((s) => s.isDirectory(), () => false))) {
      plain(res, 404, 'repository not found');
      return null;
    }
    return dir;
  }

  private async archive(url: URL, res: ServerResponse): Promise<void> {
    const q = url.searchParams;
    const format = q.get('format');
    if (!isArchiveFormat(format)) return plain(res, 400, 'format must be zip or tar.gz');
    const dir = await this.repoDir(q, res);
    if (dir) await streamArchive(dir, q.get('commit') ?? '', format, q.get('repo') ?? '', res);
  }

  private async raw(url: URL, res: ServerResponse): Promise<void> {
    const q = url.searchParams;
    const dir = await this.repoDir(q, res);
    if (!dir) return;
    const blob = q.get('blob');
    if (blob !== null) return streamBlobById(dir, blob, res);
    await streamRawBlob(dir, q.get('ref') ?? '', q.get('path') ?? '', res);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!internalTokenMatches(req.headers[INTERNAL_HEADERS.token], this.options.internalToken)) {
      return plain(res, 401, 'internal token required');
    }
    const url = new URL(req.url ?? '/', 'http://internal');
    // Blobs too large for a bus message: `GET /internal/raw?owner=&repo=&ref=&path=` streams their bytes.
    if (url.pathname === INTERNAL_RAW_PATH && req.method === 'GET') return this.raw(url, res);
    // Archives of a commit: `GET /internal/archive?owner=&repo=&commit=&format=` streams `git archive`.
    if (url.pathname === INTERNAL_ARCHIVE_PATH && req.method === 'GET') return this.archive(url, res);
    // Release attachments: their bytes in (upload) and out (download), never over the bus.
    if (url.pathname === INTERNAL_ATTACHMENTS_PATH && this.options.attachments) {
      return serveAttachment(this.options.attachments, req, res, url);
    }
    const m = ROUTE.exec(url.pathname);
    if (!m) return plain(res, 404, 'not found');
    let owner: string;
    let repo: string;
    try {
      owner = decodeURIComponent(m[1]);
      repo = decodeURIComponent(m[2]);
    } catch {
      return plain(res, 400, 'invalid repository path');
    }
    let dir: string;
    try {
      dir = repoStoragePath(this.options.repoRoot, owner, repo);
    } catch {
      return plain(res, 400, 'invalid repository path');
    }
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) return plain(res, 404, 'repository not found');

    const gitProtocol = sanitizeGitProtocol(header(req, 'git-protocol'));
    if (m[3] === 'info/refs') {
      if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'method not allowed');
      const service = url.searchParams.get('service');
      if (service !== 'git-upload-pack' && service !== 'git-receive-pack') {
        return plain(res, 403, 'dumb HTTP protocol is not supported: use a smart git client');
      }
      return this.advertise(res, service === 'git-upload-pack' ? 'upload-pack' : 'receive-pack', dir, gitProtocol);
    }
    if (req.method !== 'POST') return plain(res, 405, 'method not allowed');
    const service: GitService = m[3] === 'git-upload-pack' ? 'upload-pack' : 'receive-pack';
    const contentType = header(req, 'content-type')?.split(';')[0].trim().toLowerCase();
    if (contentType !== `application/x-git-${service}-request`) return plain(res, 415, 'unsupported media type');
    const encoding = header(req, 'content-encoding')?.trim().toLowerCase();
    if (encoding && encoding !== 'gzip' && encoding !== 'x-gzip' && encoding !== 'identity') {
      return plain(res, 415, `unsupported content encoding ${encoding}`);
    }
    const repoId = parseId(header(req, INTERNAL_HEADERS.repoId));
    if (service === 'receive-pack' && repoId === null) return plain(res, 400, 'repository id header required');
    return this.rpc(req, res, service, dir, gitProtocol, encoding === 'gzip' || encoding === 'x-gzip', {
      repoId: repoId ?? 0,
      pusherId: parseId(header(req, INTERNAL_HEADERS.actorId)),
    });
  }

  private async advertise(
    res: ServerResponse,
    service: GitService,
    dir: string,
    gitProtocol: string | undefined,
  ): Promise<void> {
    const { child, finished } = startGitService(this.options.paths, {
      service,
      dir,
      statelessRpc: true,
      advertiseRefs: true,
      gitProtocol,
    });
    child.stdin?.end();
    const stderr = collect(child.stderr);
    res.writeHead(200, noCache(`application/x-git-${service}-advertisement`));
    // Protocol v2 has no service header (as git http-backend); receive-pack always speaks v0.
    if (!(service === 'upload-pack' && gitProtocol?.includes('version=2'))) {
      res.write(`${pktLine(`# service=git-${service}\n`)}0000`);
    }
    child.stdout!.pipe(res, { end: false });
    res.once('close', () => {
      if (!res.writableFinished) child.kill();
    });
    const result = await finished;
    if (result.code !== 0) {
      // Without a complete advertisement the client must not see a clean end of the response.
      this.logger.warn(`git ${service} --advertise-refs exited with ${result.code ?? result.signal}: ${stderr()}`);
      res.destroy();
      return;
    }
    res.end();
  }

  private async rpc(
    req: IncomingMessage,
    res: ServerResponse,
    service: GitService,
    dir: string,
    gitProtocol: string | undefined,
    gzipped: boolean,
    who: { repoId: number; pusherId: number | null },
  ): Promise<void> {
    const { child, finished } = await startClientGitService(
      this.options.paths,
      { service, dir, statelessRpc: true, gitProtocol },
      { repoId: who.repoId, dir, pusherId: who.pusherId, via: 'http' },
    );
    const stderr = collect(child.stderr);
    const input = pipeline(gzipped ? [req, createGunzip(), child.stdin!] : [req, child.stdin!]).catch((err: Error) => {
      // The client went away, or git stopped reading (it has said why on its output).
      this.logger.debug?.(`git ${service} input ended early: ${err.message}`);
      child.stdin?.destroy();
    });
    res.writeHead(200, noCache(`application/x-git-${service}-result`));
    child.stdout!.pipe(res, { end: false });
    res.once('close', () => {
      // An abandoned fetch is stopped; a push is left to finish or fail on its own (refs may already be updated).
      if (!res.writableFinished && service === 'upload-pack') child.kill();
    });
    // A push is recorded by then, before the response ends (startClientGitService).
    const result = await finished;
    await input;
    if (result.code !== 0) {
      this.logger.warn(`git ${service} exited with ${result.code ?? result.signal}: ${stderr()}`);
    }
    // git reports its own failures in-band (ERR packets, report-status), so the response ends normally.
    res.end();
  }
}

/** Keeps the first few KB of a stream (git's stderr) for the log. */
export function collect(stream: NodeJS.ReadableStream | null | undefined, limit = 4096): () => string {
  let text = '';
  stream?.on('data', (chunk: Buffer) => {
    if (text.length < limit) text += chunk.toString('utf8');
  });
  return () => text.trim().slice(0, limit);
}
