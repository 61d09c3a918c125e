import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpanKind, contextFrom, currentTraceCarrier, endSpan, startSpan, type StartedSpan, type TraceCarrier } from './trace-context.js';

/** Also ends for hijacked, streamed replies; records the path but never the query (it can hold a token). */
export function traceHttpExchange(
  req: IncomingMessage,
  res: ServerResponse,
  route?: () => string | undefined,
): StartedSpan | undefined {
  const method = req.method ?? 'GET';
  const started = startSpan(`HTTP ${method}`, {
    kind: SpanKind.SERVER,
    parent: contextFrom(req.headers as TraceCarrier),
    attributes: { 'http.request.method': method, 'url.path': (req.url ?? '/').split('?')[0] },
  });
  if (!started) return undefined;
  res.once('close', () => {
    const matched = route?.();
    if (matched) {
      started.span.updateName(`${method} ${matched}`);
      started.span.setAttribute('http.route', matched);
    }
    started.span.setAttribute('http.response.status_code', res.statusCode);
    endSpan(started, res.statusCode >= 500 ? `HTTP ${res.statusCode}` : undefined);
  });
  return started;
}

export function traceHeaders(): TraceCarrier {
  return currentTraceCarrier() ?? {};
}
