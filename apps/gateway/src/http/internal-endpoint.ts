import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { INTERNAL_HEADERS } from '@cairn/contracts';
import { CORRELATION_HEADER, currentCorrelationId, traceHeaders } from '@cairn/platform';
import { HOP_BY_HOP_HEADERS } from './hop-by-hop.js';

/** Never resolved as a URL: `..` and `%2e%2e` would escape the prefix the gateway routed. */
export function upstreamPath(base: URL, publicUrl: string): string {
  return `${base.pathname.replace(/\/$/, '')}${publicUrl}`;
}

/** A service's internal HTTP endpoint (runner protocol, registries, raw files): one keep-alive agent, path as is. */
export class InternalEndpoint {
  private readonly base: URL;
  private readonly agent: HttpAgent;

  /** `highWaterMark`: the connections' buffer size both ways (large bodies want more than the 16 KiB default). */
  constructor(url: string, highWaterMark?: number) {
    this.base = new URL(url.endsWith('/') ? url : `${url}/`);
    // No Nagle delay: requests go out as headers, then body chunks.
    const options = { keepAlive: true, noDelay: true, ...(highWaterMark ? { highWaterMark } : {}) };
    this.agent = this.base.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
  }

  request(publicUrl: string, method: string, headers: OutgoingHttpHeaders): ClientRequest {
    const send = this.base.protocol === 'https:' ? httpsRequest : httpRequest;
    return send({
      protocol: this.base.protocol,
      hostname: this.base.hostname,
      port: this.base.port,
      path: upstreamPath(this.base, publicUrl),
      method,
      headers,
      agent: this.agent,
    });
  }
}

export function internalCallHeaders(internalToken: string): Record<string, string> {
  const headers: Record<string, string> = { [INTERNAL_HEADERS.token]: internalToken, ...traceHeaders() };
  const rid = currentCorrelationId();
  if (rid) headers[CORRELATION_HEADER] = rid;
  return headers;
}

export function forwardedResponseHeaders(res: IncomingMessage, correlationId: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = { [CORRELATION_HEADER]: correlationId };
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined && !HOP_BY_HOP_HEADERS.has(name)) out[name] = value;
  }
  return out;
}
