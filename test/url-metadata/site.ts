import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1, port 0, serving a table of paths; it counts the requests each path got. */
export interface Site {
  readonly origin: string;
  readonly port: number;
  url(path: string): string;
  /** Requests received per path (query string included). */
  hits(path: string): number;
  close(): Promise<void>;
}

export async function openSite(routes: Record<string, Handler>): Promise<Site> {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (route) return route(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
  });
  // Slow-body routes leave responses open: closing must not wait for them.
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path) => `${origin}${path}`,
    hits: (path) => hits.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A response with a body and headers, as most routes need. */
export const send =
  (
    body: string | Buffer,
    headers: Record<string, string> = { 'content-type': 'text/html' },
    status = 200,
  ): Handler =>
  (_req, res) => {
    res.writeHead(status, headers).end(body);
  };

export const redirect =
  (location: string, status = 302): Handler =>
  (_req, res) => {
    res.writeHead(status, { location }).end();
  };

/** Bytes that start like an ICO file (its magic and one 1×1 entry): an icon body that is not HTML. */
export const ICO = Buffer.from(
  '0000010001000101000001002000300000001600000028000000010000000200000001002000000000000000000000000000000000000000000000000000000000000000',
  'hex',
);
