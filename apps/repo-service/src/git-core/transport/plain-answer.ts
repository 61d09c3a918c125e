import type { ServerResponse } from 'node:http';

/** A short text answer of the internal streaming endpoints; once bytes were sent, the only answer left is a reset. */
export function plainAnswer(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
  res.end(`${message}\n`);
}
