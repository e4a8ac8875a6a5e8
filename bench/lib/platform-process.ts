import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ServerProcess } from './child.js';

const PLATFORM_SERVER = fileURLToPath(new URL('./platform-server.ts', import.meta.url));

/** The bench plan: limits so high that the limiter runs its full step on every call and never refuses. */
const PLANS = {
  FREE: { perMinute: 100_000_000, perDay: 1_000_000_000, perMonth: 10_000_000_000, batchSize: 100 },
};

export interface RunningPlatform {
  readonly server: ServerProcess;
  readonly port: number;
  readonly key: string;
}

/**
 * The embedded platform in a child process on `dataDir` (which may already hold data, e.g. an imported breach
 * corpus), an account on the bench plan and a `*` key; stopped by `cleanup`.
 */
export async function startPlatform(
  dataDir: string,
  cleanup: { add(name: string, fn: () => unknown): void },
): Promise<RunningPlatform> {
  mkdirSync(dataDir, { recursive: true });
  const plansFile = join(dataDir, '..', 'bench-plans.json');
  writeFileSync(plansFile, JSON.stringify(PLANS));
  // The embedded platform with every service (platform-server.ts), driven like the gateway bench's server.
  const server = new ServerProcess('toolgate-embedded', PLATFORM_SERVER);
  cleanup.add(`stop the platform (pid ${server.pid})`, () => server.stop());
  const env = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dataDir, PLANS_FILE: plansFile };
  const { port } = await server.call<{ port: number }>('start', env, 180_000);
  const { key } = await server.call<{ key: string }>('provision');
  return { server, port, key };
}
