/**
 * A real HTTP webhook receiver for end-to-end tests (loopback, a free port): it answers 200 to every request and
 * keeps what it got, in arrival order.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  /** The request path (the part of the hook URL after the receiver's base). */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body as text (what a signature is computed over). */
  body: string;
  /** The body parsed as JSON (null when it is not JSON). */
  json: any;
  /** `X-Gitea-Event`. */
  event: string;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`: append a path per hook to tell hooks apart. */
  url: string;
  received: ReceivedDelivery[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        // not JSON (form-encoded hooks): keep the text only
      }
      received.push({ path: req.url ?? '', headers: req.headers, body, json, event: String(req.headers['x-gitea-event'] ?? '') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
