import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';

/** A real HTTP(S) server on a loopback address and port 0, closed with its open connections. */
export interface LocalHttp {
  readonly origin: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage & { body: Buffer }, res: ServerResponse) => void;

/** Bodies are read before the handler runs, so handlers can look at them. */
const withBody =
  (handler: Handler): RequestListener =>
  (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(Object.assign(req, { body: Buffer.concat(chunks) }), res));
  };

async function listen(server: Server, scheme: string, host: string): Promise<LocalHttp> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    origin: `${scheme}://${shown}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const startHttp = (handler: Handler, host = '127.0.0.1'): Promise<LocalHttp> =>
  listen(createServer(withBody(handler)), 'http', host);

export const startHttps = (
  tls: { cert: string; key: string },
  handler: Handler,
  host = '127.0.0.1',
): Promise<LocalHttp> =>
  listen(createHttpsServer(tls, withBody(handler)) as unknown as Server, 'https', host);
