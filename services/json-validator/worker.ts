/**
 * Entry of a validation worker thread (see pool.ts): runs jobs one at a time with its own compiled-schema
 * cache.
 */
import { parentPort } from 'node:worker_threads';
import { runJob, type ValidationJob } from './jobs.js';
import { SchemaCompiler } from './schema-compiler.js';

const port = parentPort;
if (!port) throw new Error('worker.ts runs in a worker thread');
const compiler = new SchemaCompiler();

port.on('message', async ({ id, job }: { id: number; job: ValidationJob }) => {
  try {
    port.postMessage({ id, result: await runJob(job, compiler) });
  } catch {
    // The pool answers INTERNAL_ERROR; details stay here, where nothing logs them.
    port.postMessage({ id, failed: true });
  }
});
port.postMessage({ ready: true });
