import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server (here PostgreSQL) that a test can cut and restore. Cutting destroys
 * every proxied connection and refuses new ones at once (they are accepted and reset), so that a client
 * sees a fast failure instead of hanging until its own timeouts.
 */
export interface TcpProxy {
  port: number;
  /** Connections currently proxied. */
  readonly open: number;
  /** Connections accepted since the start (including those refused while cut). */
  readonly accepted: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let up = true;
  let accepted = 0;
  const pairs = new Set<[Socket, Socket]>();

  const server: Server = createServer((client) => {
    accepted++;
    if (!up) {
      client.on('error', () => undefined);
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('proxy has no port');

  const cutAll = () => {
    for (const pair of pairs) {
      pairs.delete(pair);
      pair[0].resetAndDestroy();
      pair[1].destroy();
    }
  };

  return {
    port: address.port,
    get open() {
      return pairs.size;
    },
    get accepted() {
      return accepted;
    },
    cut() {
      up = false;
      cutAll();
    },
    restore() {
      up = true;
    },
    close() {
      up = false;
      cutAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
