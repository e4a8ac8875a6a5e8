import { createServer as createTcpServer, type Server, type Socket } from 'node:net';
import { createServer, type TlsOptions } from 'node:tls';

/** A real listener on 127.0.0.1, port 0. */
export interface Listener {
  readonly port: number;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<Listener> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // A probe may leave a socket half-open; the test must not wait for it.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A TLS server that completes handshakes and closes; `cert` may hold the chain (leaf first). */
export function tlsServer(options: TlsOptions): Promise<Listener> {
  const server = createServer(options, (socket) => socket.end());
  // Refused handshakes are what the version probes look for, not failures of the test.
  server.on('tlsClientError', () => {});
  return listen(server);
}

/** A TCP server that answers the first bytes with `reply` (e.g. plain HTTP), or with null never answers. */
export function tcpServer(reply: string | null): Promise<Listener> {
  return listen(
    createTcpServer((socket) => {
      if (reply !== null) socket.once('data', () => socket.end(reply));
    }),
  );
}

/** A port that was free a moment ago: connections to it are refused. */
export async function closedPort(): Promise<number> {
  const listener = await listen(createTcpServer());
  await listener.close();
  return listener.port;
}
