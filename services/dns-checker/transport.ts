import { createSocket } from 'node:dgram';
import { isIPv6, connect as tcpConnect } from 'node:net';
import type { NameServer } from './servers.js';
import { decodeMessage, type Message } from './wire.js';

export type TransportErrorCode = 'TIMEOUT' | 'NETWORK_ERROR';

export class TransportError extends Error {
  constructor(
    readonly code: TransportErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** What a response must echo to be the answer to our query. */
export interface Expected {
  readonly id: number;
  readonly name: string;
  readonly type: number;
}

/** Sends one query and resolves with the matching response; TransportError otherwise. */
export type Exchange = (
  server: NameServer,
  packet: Buffer,
  expected: Expected,
  timeoutMs: number,
) => Promise<Message>;

/**
 * RFC 5452 3: a response counts only with our random id and our question. Datagrams that do not match (late
 * answers to an earlier query, spoofing attempts, garbage) are dropped and the wait goes on.
 */
export function matches(message: Message, expected: Expected): boolean {
  if (!message.response || message.id !== expected.id) return false;
  // Some servers leave the question out of an error response (FORMERR, REFUSED); an answer must echo it.
  if (!message.question) return message.rcode !== 0;
  return (
    message.question.type === expected.type &&
    message.question.name.toLowerCase() === expected.name.toLowerCase()
  );
}

/**
 * UDP on a fresh socket (a random source port per query, RFC 5452 4.5), connected to the server so the kernel
 * drops datagrams from anyone else and reports ICMP port-unreachable as ECONNREFUSED.
 */
export const exchangeUdp: Exchange = (server, packet, expected, timeoutMs) =>
  new Promise((resolve, reject) => {
    const socket = createSocket(isIPv6(server.address) ? 'udp6' : 'udp4');
    let done = false;
    const finish = (err: Error | null, message?: Message) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      if (err) reject(err);
      else resolve(message!);
    };
    const timer = setTimeout(
      () => finish(new TransportError('TIMEOUT', `no answer from ${server.label} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('error', (err: NodeJS.ErrnoException) =>
      finish(new TransportError('NETWORK_ERROR', networkMessage(server, err))),
    );
    socket.on('message', (data) => {
      let message: Message;
      try {
        message = decodeMessage(data);
      } catch {
        // Garbage is dropped like any other datagram that is not our answer (a throw here would be uncaught).
        return;
      }
      if (matches(message, expected)) finish(null, message);
    });
    socket.connect(server.port, server.address, () => {
      socket.send(packet, (err) => {
        if (err) finish(new TransportError('NETWORK_ERROR', networkMessage(server, err)));
      });
    });
  });

/** TCP (RFC 1035 4.2.2, RFC 7766): the message behind a two-octet length, one query per connection. */
export const exchangeTcp: Exchange = (server, packet, expected, timeoutMs) =>
  new Promise((resolve, reject) => {
    const socket = tcpConnect({ host: server.address, port: server.port });
    let done = false;
    let received = Buffer.alloc(0);
    const finish = (err: Error | null, message?: Message) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(message!);
    };
    const timer = setTimeout(
      () =>
        finish(
          new TransportError('TIMEOUT', `no answer over TCP from ${server.label} within ${timeoutMs} ms`),
        ),
      timeoutMs,
    );
    socket.on('error', (err: NodeJS.ErrnoException) =>
      finish(new TransportError('NETWORK_ERROR', networkMessage(server, err))),
    );
    socket.on('close', () =>
      finish(
        new TransportError('NETWORK_ERROR', `${server.label} closed the TCP connection before answering`),
      ),
    );
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2) return;
      const length = received.readUInt16BE(0);
      if (received.length < 2 + length) return;
      let message: Message;
      try {
        message = decodeMessage(received.subarray(2, 2 + length));
      } catch {
        return finish(
          new TransportError('NETWORK_ERROR', `${server.label} sent a malformed answer over TCP`),
        );
      }
      if (matches(message, expected)) return finish(null, message);
      finish(new TransportError('NETWORK_ERROR', `${server.label} answered another query over TCP`));
    });
    const frame = Buffer.alloc(2 + packet.length);
    frame.writeUInt16BE(packet.length, 0);
    packet.copy(frame, 2);
    socket.write(frame);
  });

function networkMessage(server: NameServer, err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `${server.label} refused the connection`;
    case 'ECONNRESET':
      return `${server.label} reset the connection`;
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return `${server.label} is unreachable`;
    default:
      return `network error talking to ${server.label} (${err.code ?? 'unknown'})`;
  }
}
