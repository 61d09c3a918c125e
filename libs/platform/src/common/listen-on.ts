import type { AddressInfo } from 'node:net';

export interface ListeningServer {
  listen(port: number, host: string, callback: () => void): unknown;
  address(): AddressInfo | string | null;
  once(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
}

/** Rejects on a bind error; port 0 picks a free one. */
export async function listenOn(server: ListeningServer, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
