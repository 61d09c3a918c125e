import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { formatIp, parseIp } from '../ssrf/ip.js';
import { isAllowedAddress, isAllowedTarget, type HostMatchList } from '../ssrf/host-matcher.js';

/** Responses are kept up to this size (the rest is read and dropped). */
export const MAX_RECORDED_BODY = 64 * 1024;

export interface OutgoingRequest {
  url: string;
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: Buffer;
}

export interface SendResult {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  error?: string;
  errorKind?: 'blocked' | 'timeout' | 'network' | 'invalid';
  durationMs: number;
}

/** Raised (through the socket) when every address of the target is outside `[webhook] ALLOWED_HOST_LIST`. */
export class BlockedTargetError extends Error {
  readonly code = 'ERR_WEBHOOK_TARGET_BLOCKED';
  constructor(host: string, addresses: string[]) {
    super(
      `webhook can only call allowed HTTP servers (check your [webhook] ALLOWED_HOST_LIST setting), ` +
        `deny '${host}(${addresses.join(', ')})'`,
    );
  }
}

class DeliveryTimeoutError extends Error {
  readonly code = 'ERR_WEBHOOK_TIMEOUT';
}

export interface HttpSenderOptions {
  allowedHosts: HostMatchList;
  timeoutMs: number;
  skipTlsVerify: boolean;
  maxSockets: number;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

// SSRF is enforced where the socket opens: the agents' `lookup` keeps only allowed addresses (a DNS answer cannot
// change between check and connect); literal addresses never reach `lookup` and are checked first. No redirects.
export class HttpSender {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: HttpSenderOptions) {
    const lookup = this.guardedLookup.bind(this) as unknown as http.AgentOptions['lookup'];
    const common = { keepAlive: true, maxSockets: options.maxSockets, lookup };
    this.httpAgent = new http.Agent(common);
    this.httpsAgent = new https.Agent({ ...common, rejectUnauthorized: !options.skipTlsVerify });
  }

  private guardedLookup(hostname: string, opts: LookupOptions, callback: LookupCallback): void {
    dnsLookup(hostname, { ...opts, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const allowed = addresses.filter((a) => isAllowedAddress(this.options.allowedHosts, hostname, a.address));
      if (!allowed.length) {
        return callback(new BlockedTargetError(hostname, addresses.map((a) => a.address)) as NodeJS.ErrnoException, []);
      }
      if (opts.all) return callback(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  }

  send(req: OutgoingRequest): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(req.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('unsupported scheme');
    } catch {
      return Promise.resolve({ error: `invalid URL: ${req.url}`, errorKind: 'invalid', durationMs: 0 });
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = parseIp(host);
    if (literal && !isAllowedTarget(this.options.allowedHosts, host, literal)) {
      return Promise.resolve({ error: new BlockedTargetError(host, [formatIp(literal)]).message, errorKind: 'blocked', durationMs: 0 });
    }
    const https_ = url.protocol === 'https:';
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (r: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...r, durationMs: elapsed() });
      };
      const request = (https_ ? https : http).request(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port || (https_ ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method: req.method,
          headers: { ...req.headers, 'Content-Length': String(req.body.length) },
          // Credentials in the URL become Basic authentication (as Go's client does), unless the hook sets its own.
          auth: url.username && !req.headers.Authorization
            ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
            : undefined,
          agent: https_ ? this.httpsAgent : this.httpAgent,
          // Only used for literal hosts; names go through the agent's guarded lookup.
          servername: literal ? undefined : host,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size < MAX_RECORDED_BODY) chunks.push(c.subarray(0, MAX_RECORDED_BODY - size));
            size += c.length;
          });
          res.on('end', () =>
            finish({ status: res.statusCode, headers: flattenHeaders(res.headers), body: recordableText(Buffer.concat(chunks)) }),
          );
          res.on('error', (err) => finish(errorResult(err, this.options.timeoutMs)));
        },
      );
      const timer = setTimeout(() => request.destroy(new DeliveryTimeoutError('timeout')), this.options.timeoutMs);
      request.on('error', (err) => finish(errorResult(err, this.options.timeoutMs)));
      request.end(req.body);
    });
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function errorResult(err: Error & { code?: string }, timeoutMs: number): Omit<SendResult, 'durationMs'> {
  if (err instanceof BlockedTargetError || err.code === 'ERR_WEBHOOK_TARGET_BLOCKED') {
    return { error: err.message, errorKind: 'blocked' };
  }
  if (err instanceof DeliveryTimeoutError) {
    return { error: `timed out after ${timeoutMs} ms ([webhook] DELIVER_TIMEOUT)`, errorKind: 'timeout' };
  }
  return { error: `connection failed: ${err.code ? `${err.code} ` : ''}${err.message}`.trim(), errorKind: 'network' };
}

/** A response body as text PostgreSQL can store: NUL bytes (binary answers) become U+FFFD. */
function recordableText(body: Buffer): string {
  const text = body.toString('utf8');
  return text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
}

function flattenHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
