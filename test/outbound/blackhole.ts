import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

/**
 * A local address where TCP connects hang, like a firewalled host, for connect timeouts: a listener with a
 * backlog of 1 in a worker thread whose event loop is blocked, so nothing is ever accepted. Once the kernel's
 * accept queue holds its connections, further SYNs are dropped and connect() waits until the caller gives up.
 */
export interface Blackhole {
  readonly host: '127.0.0.1';
  readonly port: number;
  close(): Promise<void>;
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const server = net.createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  Atomics.wait(new Int32Array(workerData), 0, 0);
});
`;

const connects = (port: number, withinMs: number): Promise<Socket | null> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, withinMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
  });

export async function startBlackhole(): Promise<Blackhole> {
  const gate = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER, { eval: true, workerData: gate });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // Fill the accept queue: connects succeed until it is full, then the first one that hangs proves the hole.
  const fillers: Socket[] = [];
  for (let i = 0; i < 16; i++) {
    const socket = await connects(port, 300);
    if (!socket) break;
    fillers.push(socket);
    if (i === 15) throw new Error('blackhole: the accept queue never filled');
  }
  return {
    host: '127.0.0.1',
    port,
    async close() {
      for (const s of fillers) s.destroy();
      Atomics.store(new Int32Array(gate), 0, 1);
      Atomics.notify(new Int32Array(gate), 0);
      await worker.terminate();
    },
  };
}
