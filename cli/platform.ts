import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { JwtService } from '../core/auth/jwt.js';
import type { KeyLookup } from '../core/auth/key-lookup.js';
import { SecretStore } from '../core/auth/secrets.js';
import type { Subscription } from '../core/bus/bus.js';
import { openSqlite } from '../core/db/sqlite.js';
import type { Mailer } from '../core/mail/mailer.js';
import { OutboxMailer } from '../core/mail/outbox-mailer.js';
import { SmtpMailer } from '../core/mail/smtp-mailer.js';
import { KafkaMeteringSink } from '../core/metering/kafka-metering-sink.js';
import type { MeteringSink } from '../core/metering/metering-sink.js';
import { SqliteMeteringSink } from '../core/metering/sqlite-metering-sink.js';
import { createOutboundClient } from '../core/outbound/client.js';
import { outboundPolicyFromConfig } from '../core/outbound/policy-from-config.js';
import { MemoryRateLimiter } from '../core/ratelimit/memory-rate-limiter.js';
import { limitsFor, loadPlans } from '../core/ratelimit/plans.js';
import type { RateLimiter } from '../core/ratelimit/rate-limiter.js';
import { RedisRateLimiter } from '../core/ratelimit/redis-rate-limiter.js';
import type { ServiceDefinition } from '../core/service/definition.js';
import { buildApp } from '../gateway/app.js';
import { docsPlugin } from '../gateway/docs.js';
import type { GatewayPorts } from '../gateway/ports.js';
import { ApiKeysReader, SqlKeyLookup } from '../projections/apikeys/reader.js';
import { RedisKeyLookup, RedisKeyLookupProjector } from '../projections/apikeys/redis-key-lookup.js';
import { ReputationReader } from '../projections/ip-reputation/reader.js';
import { ClickHouseMigrator } from '../projections/usage/clickhouse.js';
import { ClickHouseCallsProjector } from '../projections/usage/clickhouse-calls-projector.js';
import { ClusterUsageReader } from '../projections/usage/cluster-usage-reader.js';
import type { UsageReader } from '../projections/usage/reader.js';
import { RedisUsageProjector } from '../projections/usage/redis-usage-projector.js';
import { SqliteUsageReader } from '../projections/usage/sqlite-usage-reader.js';
import { ApiKeyCommands } from '../services/apikeys/commands.js';
import { createApiKeysService } from '../services/apikeys/service.js';
import { createCaptchaService } from '../services/captcha/service.js';
import { createDeduplicationService } from '../services/deduplication/service.js';
import { createDisposableEmailService } from '../services/disposable-email/service.js';
import { createDnsCheckerService } from '../services/dns-checker/service.js';
import { createFileTypeService } from '../services/file-type/service.js';
import { GeoLookup } from '../services/ip-geolocation/geo-lookup.js';
import { createIpGeolocationService } from '../services/ip-geolocation/service.js';
import { feedFetcher } from '../services/ip-reputation/feed-fetch.js';
import { startFeedRefresh } from '../services/ip-reputation/feed-import.js';
import { FeedMatcher } from '../services/ip-reputation/feed-matcher.js';
import { parseFeedsSetting } from '../services/ip-reputation/feed-spec.js';
import { FeedStore } from '../services/ip-reputation/feed-store.js';
import { createIpReputationService } from '../services/ip-reputation/service.js';
import { WorkerPool } from '../services/json-validator/pool.js';
import { createJsonValidatorService } from '../services/json-validator/service.js';
import { createKeywordExtractorService } from '../services/keyword-extractor/service.js';
import { createLogRedactionService } from '../services/log-redaction/service.js';
import { breachedPasswordsFrom } from '../services/password-breach/breached-passwords.js';
import { openBreachCorpus } from '../services/password-breach/open-corpus.js';
import { createPasswordBreachService } from '../services/password-breach/service.js';
import { createPhoneValidationService } from '../services/phone-validation/service.js';
import { type AdminOutcome, ensureAdmin } from '../services/portal/admin-bootstrap.js';
import { createPortalAuthService, type PortalAuthService } from '../services/portal/auth-service.js';
import { LoginThrottle } from '../services/portal/login-throttle.js';
import { bundledBreachedPasswords } from '../services/portal/password-policy.js';
import { readabilityService } from '../services/readability/service.js';
import { createSslCheckerService } from '../services/ssl-checker/service.js';
import { createUrlMetadataService } from '../services/url-metadata/service.js';
import { createUsageService } from '../services/usage/service.js';
import { errorSummary, type Runtime } from './runtime.js';

/**
 * The account system, the metering pipeline and the services, wired onto a Runtime's ports for its profile.
 * The composition root of the HTTP side: the gateway itself knows none of these adapters.
 */
const VERSION = '0.1.0';

export interface Platform {
  readonly services: readonly ServiceDefinition[];
  readonly ports: GatewayPorts;
  readonly portal: PortalAuthService;
  /** Builds the HTTP app (with OpenAPI, Swagger UI and the MCP manifest). */
  app(options?: { logger?: boolean }): Promise<FastifyInstance>;
  /** Projector role: the read models that live outside SQL (Redis key lookup, usage, ClickHouse). */
  startProjectors(): Promise<void>;
  /** Worker role: scheduled work (the IP reputation feeds' refresh). */
  startWorker(): void;
  /** ADMIN_LOGIN/ADMIN_EMAIL/ADMIN_PASSWORD at start-up, and `toolgate admin create`. */
  ensureAdmin(input: { login: string; email: string; password: string }): Promise<AdminOutcome>;
  close(): Promise<void>;
}

export async function openPlatform(rt: Runtime, logger: Logger): Promise<Platform> {
  const { config } = rt;
  const REDIS_PREFIX = config.REDIS_PREFIX;
  const plans = loadPlans(config.PLANS_FILE);
  const apiKeysReader = new ApiKeysReader(rt.readModels);
  const closers: (() => Promise<void>)[] = [];
  const subscriptions: Subscription[] = [];

  let metering: MeteringSink;
  let usage: UsageReader;
  let limiter: RateLimiter;
  let keys: KeyLookup;
  let waitForKey: (keyId: string, version: number) => Promise<unknown> = (id, v) =>
    apiKeysReader.waitForVersion(id, v);
  let projectors: () => Promise<void> = async () => {};
  const monthUsed = async (accountId: string, period: string) =>
    (await usage.monthly(accountId, period)).used;

  if (rt.clients) {
    const { redis, clickhouse } = rt.clients;
    metering = new KafkaMeteringSink(rt.bus);
    usage = new ClusterUsageReader(redis, clickhouse, { prefix: REDIS_PREFIX });
    limiter = new RedisRateLimiter(redis, { prefix: REDIS_PREFIX, loadMonthUsed: monthUsed });
    const lookup = new RedisKeyLookup(redis, { prefix: REDIS_PREFIX });
    keys = lookup;
    // A key is usable as soon as both read models have it: the portal list (SQL) and the gateways' lookup (Redis).
    waitForKey = async (id, v) =>
      Promise.all([apiKeysReader.waitForVersion(id, v), lookup.waitForVersion(id, v)]);
    await new ClickHouseMigrator({ url: rt.config.cluster!.clickhouseUrl }).migrate();
    projectors = async () => {
      subscriptions.push(
        await new RedisKeyLookupProjector(redis, { prefix: REDIS_PREFIX }).start(rt.bus, rt.store),
      );
      subscriptions.push(await new RedisUsageProjector(redis, { prefix: REDIS_PREFIX }).subscribe(rt.bus));
      subscriptions.push(await new ClickHouseCallsProjector(clickhouse).subscribe(rt.bus));
    };
  } else {
    mkdirSync(config.dataDir, { recursive: true });
    const file = join(config.dataDir, 'metering.db');
    const sink = SqliteMeteringSink.open(file);
    metering = sink;
    const usageDb = openSqlite(file);
    usage = new SqliteUsageReader(usageDb);
    closers.push(async () => {
      usageDb.close();
    });
    limiter = new MemoryRateLimiter({ loadMonthUsed: monthUsed });
    keys = new SqlKeyLookup(rt.readModels);
  }
  closers.push(
    () => metering.close(),
    () => limiter.close(),
  );

  // The breach corpus: an imported dataset under DATA_DIR when there is one, else the bundled common passwords.
  const corpus = await openBreachCorpus({ dataDir: config.dataDir });
  closers.push(() => corpus.close());
  const jwt = await JwtService.open({ secrets: new SecretStore(rt.readModels), issuer: config.PUBLIC_URL });
  const mailer: Mailer = config.SMTP_URL
    ? new SmtpMailer({ url: config.SMTP_URL, publicUrl: config.PUBLIC_URL })
    : new OutboxMailer({
        dataDir: config.dataDir,
        publicUrl: config.PUBLIC_URL,
        onWritten: (file) => logger.info({ file }, 'mail written to the outbox (no SMTP_URL set)'),
      });
  const portal = createPortalAuthService({
    accounts: rt.accounts.commands,
    reader: rt.accounts.reader,
    jwt,
    mailer,
    throttle: new LoginThrottle(rt.kv),
    // The same corpus the password-breach service answers from, plus the portal's list of common passwords.
    breached: breachedPasswordsFrom(corpus, bundledBreachedPasswords()),
    config: { PUBLIC_URL: config.PUBLIC_URL, DEFAULT_PLAN: config.DEFAULT_PLAN },
    onError: (err, during) =>
      logger.error({ err: errorSummary(err), during }, 'portal background work failed'),
  });
  // The one client through which every service contacts hosts that users name (SSRF guard, caps).
  const outbound = createOutboundClient(outboundPolicyFromConfig(config, VERSION));
  // Loaded lazily on the first lookup (about 150 MB); shared by geolocation and reputation.
  const geo = new GeoLookup({
    ...(config.GEOIP_CITY_DB ? { cityDb: config.GEOIP_CITY_DB } : {}),
    ...(config.GEOIP_ASN_DB ? { asnDb: config.GEOIP_ASN_DB } : {}),
  });
  // IP reputation: feeds (FEEDS) in SQL tables, matched in memory; checks and reports are events.
  const feeds = parseFeedsSetting(config.FEEDS);
  const feedStore = new FeedStore(rt.readModels);
  const feedMatcher = new FeedMatcher(feedStore);
  // JSON Schema validation runs in worker threads: a hostile pattern cannot stall the gateway's event loop.
  const jsonPool = new WorkerPool();
  closers.push(() => jsonPool.close());
  const limits = (plan: string, overrides: object | null) => limitsFor(plans, plan, overrides ?? undefined);
  const services: ServiceDefinition[] = [
    portal,
    createApiKeysService({
      commands: new ApiKeyCommands(rt.store),
      reader: apiKeysReader,
      waitFor: waitForKey,
    }),
    createUsageService({
      usage,
      accounts: rt.accounts.reader,
      activeKeys: async () => (await apiKeysReader.all()).filter((k) => !k.revokedAt).length,
      monthlyLimit: (plan, overrides) => limits(plan, overrides).perMonth,
    }),
    readabilityService,
    createKeywordExtractorService(),
    createSslCheckerService({ outbound }),
    createUrlMetadataService({ outbound }),
    createJsonValidatorService({ runner: jsonPool }),
    createDisposableEmailService({
      kv: rt.kv,
      ...(config.DNS_SERVERS ? { dnsServers: config.DNS_SERVERS } : {}),
    }),
    createPhoneValidationService(),
    createIpGeolocationService({ geo }),
    createPasswordBreachService({ corpus }),
    createLogRedactionService(),
    createFileTypeService({ outbound }),
    createDeduplicationService({ kv: rt.kv }),
    createCaptchaService({ kv: rt.kv }),
    createIpReputationService({
      geo,
      feeds: feedMatcher,
      store: rt.store,
      reader: new ReputationReader(rt.readModels),
    }),
    createDnsCheckerService({ ...(config.DNS_SERVERS ? { dnsServers: config.DNS_SERVERS } : {}) }),
  ];
  const ports: GatewayPorts = {
    keys,
    accounts: rt.accounts.reader,
    jwt,
    limits,
    limiter,
    metering,
  };

  return {
    services,
    ports,
    portal,
    app: (options = {}) =>
      buildApp({
        config,
        health: () => rt.health(),
        services,
        ports,
        ...(options.logger === false ? { logger: false } : {}),
        plugins: [docsPlugin(config.PUBLIC_URL, VERSION)],
      }),
    startProjectors: () => projectors(),
    startWorker: () => {
      const stop = startFeedRefresh({
        feeds,
        store: feedStore,
        fetchText: feedFetcher(outbound),
        intervalMs: config.FEEDS_REFRESH_MINUTES * 60_000,
        onImported: () => feedMatcher.reload(),
        onError: (err) =>
          logger.error({ err: errorSummary(err) }, 'feed refresh failed; the previous lists stay'),
      });
      closers.push(stop);
    },
    ensureAdmin: (input) =>
      ensureAdmin(input, {
        accounts: rt.accounts.commands,
        reader: rt.accounts.reader,
        plan: config.DEFAULT_PLAN,
      }),
    close: async () => {
      await Promise.all(subscriptions.splice(0).map((s) => s.stop()));
      await portal.drain();
      for (const close of closers.reverse()) await close().catch(() => {});
    },
  };
}
