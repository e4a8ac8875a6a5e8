/**
 * Child process of the SIGKILL test: records calls into a metering database from many concurrent "requests"
 * and prints `ack <eventId> <status>` for every record() that resolved, i.e. every call a gateway would have
 * answered. Runs until killed.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { newServiceCall } from '../../../core/metering/service-call.js';
import { SqliteMeteringSink } from '../../../core/metering/sqlite-metering-sink.js';

const [file, account] = process.argv.slice(2);
if (!file || !account) throw new Error('usage: record-child.ts <db file> <account id>');
const sink = SqliteMeteringSink.open(file);
const statuses = [200, 200, 201, 404, 500];
const slugs = ['captcha', 'cron', 'dns-checker'];

async function client(n: number): Promise<never> {
  for (let i = 0; ; i++) {
    const call = newServiceCall({
      accountId: account!,
      keyId: `k${n}`,
      slug: slugs[(n + i) % slugs.length]!,
      operationId: 'op',
      convention: 'R',
      status: statuses[(n * 7 + i) % statuses.length]!,
      latencyMs: 1,
    });
    await sink.record(call);
    process.stdout.write(`ack ${call.eventId} ${call.status}\n`);
    for (let t = 0; t < n % 5; t++) await nextTurn();
  }
}

process.stdout.write('ready\n');
await Promise.all(Array.from({ length: 64 }, (_, n) => client(n)));
