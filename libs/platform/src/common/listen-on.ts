import type { AddressInfo } from 'node:net';

/** What {@link listenOn} needs of a server: node's `net.Server`, `http.Server`, ssh2's `Server` alike. */
export interface ListeningServer {
  listen(port: number, host: string, callback: () => void): unknown;
  address(): AddressInfo | string | null;
  once(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
}

/** Binds `server` to `host:port` (0: a free port), rejecting on a bind error; resolves with the port bound. */
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
