import { parseArgs } from 'node:util';
import pino from 'pino';
import { type Config, ConfigError, describeSettings, loadConfig } from '../core/config/config.js';
import { createOutboundClient } from '../core/outbound/client.js';
import { outboundPolicyFromConfig } from '../core/outbound/policy-from-config.js';
import { loggerOptions } from '../gateway/logger.js';
import { feedFetcher } from '../services/ip-reputation/feed-fetch.js';
import { parseFeedsSetting } from '../services/ip-reputation/feed-spec.js';
import { runFeedsImport } from './feeds-import.js';
import { runPasswordsImport } from './passwords-import.js';
import { openPlatform, type Platform } from './platform.js';
import { errorSummary, openRuntime, PROJECTIONS, type Runtime } from './runtime.js';

const USAGE = `Usage: toolgate <command>

Commands:
  start                       every role in one process (the default; embedded unless cluster URLs are set)
  gateway                     the HTTP API only
  worker                      background work: the outbox relay to Kafka (cluster), schedules
  projector                   the projection runner: builds the read models
  migrate                     create or upgrade every table, then exit
  projections status          each projection's generation, position and lag
  projections rebuild NAME    replay NAME from position 0 into fresh tables and swap them in
  feeds import [NAME ...]      import the IP reputation feeds of FEEDS now (or the ones named)
  passwords import FILE [-o PATH]
                              import a Have I Been Pwned SHA1:COUNT dataset (sorted) into DATA_DIR
  admin create --login L --email E
                              make L an activated admin (created if missing); the password is read from
                              ADMIN_PASSWORD or, when unset, from standard input
  config                      list every setting with its default
  help                        this text

Settings come from the environment (and ./.env); see README.md.`;

type Role = 'gateway' | 'worker' | 'projector';

/** Exit codes: 0 done, 1 failure at run time, 2 bad usage or configuration. */
async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: { login: { type: 'string' }, email: { type: 'string' } },
  });
  const [command = 'start', sub, name] = positionals;

  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === 'config') {
    for (const s of describeSettings()) {
      const def = s.default === undefined ? '' : ` (default: ${JSON.stringify(s.default)})`;
      process.stdout.write(`${s.name.padEnd(22)} ${s.description}${def}\n`);
    }
    return 0;
  }

  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`toolgate: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const logger = pino(loggerOptions(config.LOG_LEVEL));

  switch (command) {
    case 'start':
      return serve(config, logger, ['gateway', 'worker', 'projector']);
    case 'gateway':
    case 'worker':
    case 'projector':
      return serve(config, logger, [command]);
    case 'migrate':
      return once(config, logger, async (rt) => {
        await rt.projections.prepare();
        process.stdout.write(`migrated (${config.profile} profile)\n`);
      });
    case 'feeds':
      if (sub !== 'import') {
        process.stderr.write(`${USAGE}\n`);
        return 2;
      }
      return once(config, logger, async (rt) => {
        const outbound = createOutboundClient(outboundPolicyFromConfig(config, '0.1.0'));
        process.exitCode = await runFeedsImport(positionals.slice(2), {
          db: rt.readModels,
          feeds: parseFeedsSetting(config.FEEDS),
          fetchText: feedFetcher(outbound),
          stdout: process.stdout,
          stderr: process.stderr,
        });
      }).then((code) => (code === 0 ? Number(process.exitCode ?? 0) : code));
    case 'passwords':
      if (sub === 'import') return runPasswordsImport(positionals.slice(2), config);
      process.stderr.write(`${USAGE}\n`);
      return 2;
    case 'admin': {
      const login = typeof values.login === 'string' ? values.login : undefined;
      const email = typeof values.email === 'string' ? values.email : undefined;
      if (sub !== 'create' || !login || !email) {
        process.stderr.write(`${USAGE}\n`);
        return 2;
      }
      const password = config.ADMIN_PASSWORD ?? (await readStdin()).trim();
      return once(config, logger, async (rt) => {
        const platform = await openPlatform(rt, logger);
        try {
          await rt.projections.start();
          const outcome = await platform.ensureAdmin({ login, email, password });
          process.stdout.write(
            `${outcome.created ? 'created' : 'granted ROLE_ADMIN to'} ${login} (${outcome.accountId})\n`,
          );
        } finally {
          await platform.close();
        }
      });
    }
    case 'projections':
      if (sub === 'status') {
        return once(config, logger, async (rt) => {
          process.stdout.write(`${JSON.stringify(await rt.projections.status(), null, 2)}\n`);
        });
      }
      if (sub === 'rebuild' && name) {
        if (!PROJECTIONS.some((p) => p.name === name)) {
          process.stderr.write(
            `toolgate: unknown projection ${name}; known: ${PROJECTIONS.map((p) => p.name).join(', ')}\n`,
          );
          return 2;
        }
        return once(config, logger, async (rt) => {
          const started = Date.now();
          const status = await rt.projections.rebuild(name);
          process.stdout.write(
            `rebuilt ${name}: generation ${status.generation}, position ${status.position}, ${Date.now() - started} ms\n`,
          );
        });
      }
      process.stderr.write(`${USAGE}\n`);
      return 2;
    default:
      process.stderr.write(`toolgate: unknown command ${command}\n\n${USAGE}\n`);
      return 2;
  }
}

async function once(
  config: Config,
  logger: pino.Logger,
  fn: (rt: Runtime) => Promise<void>,
): Promise<number> {
  const rt = await openRuntime(config, logger);
  try {
    await fn(rt);
    return 0;
  } finally {
    await rt.close();
  }
}

async function serve(config: Config, logger: pino.Logger, roles: Role[]): Promise<number> {
  const rt = await openRuntime(config, logger);
  const platform = await openPlatform(rt, logger);
  if (roles.includes('projector')) {
    await rt.projections.start();
    await platform.startProjectors();
  } else {
    await rt.projections.prepare();
  }
  if (roles.includes('worker')) {
    rt.relay?.start();
    platform.startWorker();
  }
  if (config.ADMIN_LOGIN && config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    const outcome = await platform.ensureAdmin({
      login: config.ADMIN_LOGIN,
      email: config.ADMIN_EMAIL,
      password: config.ADMIN_PASSWORD,
    });
    logger.info({ login: config.ADMIN_LOGIN, created: outcome.created }, 'admin account ensured');
  }

  let app: Awaited<ReturnType<Platform['app']>> | null = null;
  if (roles.includes('gateway')) {
    app = await platform.app();
    await app.listen({ port: config.PORT, host: config.HOST });
  }
  logger.info(
    { profile: config.profile, roles, dataDir: config.profile === 'embedded' ? config.dataDir : undefined },
    'toolgate started',
  );

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'shutting down');
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await app?.close();
  await platform.close();
  await rt.close();
  return 0;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Start-up failures (a database that refuses connections, say) end with one line, never a stack trace.
    process.stderr.write(`toolgate: ${errorSummary(err).name}: ${errorSummary(err).message}\n`);
    process.exitCode = 1;
  },
);
