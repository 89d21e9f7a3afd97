import { isIP } from 'node:net';
import { resolve } from 'node:path';

/** One entry of a host allow-list: a network (CIDR, or one address), a host name, or every sub-domain of a name (`*.example.net`). */
export type HostPattern =
  { kind: 'network'; address: string; prefix: number; family: 'ipv4' | 'ipv6' } | { kind: 'name'; name: string } | { kind: 'subdomains'; suffix: string };

/** Every setting of the service, read once from the environment, typed, with its default. */
export interface Config {
  env: 'production' | 'development' | 'test';
  host: string;
  port: number;
  /** Public address clients use; ends in /api/v1. Without BASE_URL, derived from HOST and PORT (a wildcard HOST as 127.0.0.1 or localhost). */
  baseUrl: string;
  /** The deployments the OpenAPI document's `servers` names (API_SERVERS), beside this server; each ends in /api/v1. */
  apiServers: ApiServer[];
  /** DATABASE_URL, a `postgres://` or `postgresql://` URL; null: SQLite at `sqlitePath`. */
  databaseUrl: string | null;
  /** PostgreSQL connections per instance (DATABASE_POOL_SIZE); several instances together must stay under the server's max_connections. */
  databasePoolSize: number;
  sqlitePath: string;
  dataDir: string;
  redisUrl: string | null;
  /** Prefix of every Redis key, so several deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** 32-byte key (hex or base64) that encrypts secrets at rest (API keys to reveal, WebRTC passwords). */
  secretKey: string;
  smtpUrl: string | null;
  mailFrom: string;
  logLevel: string;
  /** LOG_FORMAT: `json` (one object a line, for collectors), `pretty` (pino-pretty, a dev dependency), or `auto`: pretty on a development terminal. */
  logFormat: 'json' | 'pretty' | 'auto';
  /** SCHEDULE_SLOT_MINUTES: a new shift schedule's slot length when none is given. */
  scheduleSlotMinutes: number;
  rateLimitPerMinute: number;
  /**
   * Milliseconds an instance may reuse a resolved token or a `/me` profile. Writes through this
   * instance (through any, with Redis) drop them at once; the TTL bounds changes made out of
   * sight (the CLI, another instance without Redis). 0 turns the caches off.
   */
  cacheTtlMs: number;
  maxPageSize: number;
  bodyLimitBytes: number;
  passwordlessCodeTtlSeconds: number;
  passwordlessResendCooldownSeconds: number;
  passwordlessMaxAttempts: number;
  magicLinkTtlSeconds: number;
  userTokenTtlSeconds: number | null;
  loginAttemptsPerWindow: number;
  loginWindowSeconds: number;
  /** `serve` seeds an empty database with the demo tenants (SEED_DEMO): on by default, but never in production unless set to true. */
  seedDemo: boolean;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /** Run the background job worker in this process (JOB_WORKER=false for API-only instances). */
  jobWorkerEnabled: boolean;
  jobPollIntervalMs: number;
  /** Seconds a claimed job belongs to its worker without a heartbeat; then another instance reclaims it. */
  jobLeaseSeconds: number;
  /** Largest contact-import upload; bigger files are refused with 413. */
  importMaxBytes: number;
  /** Largest sound-file upload (SOUND_FILE_MAX_BYTES); bigger files are refused with 413. */
  soundFileMaxBytes: number;
  /** Seconds a replaced webhook signing secret keeps signing deliveries beside the new one (WEBHOOK_SECRET_OVERLAP_SECONDS). */
  webhookSecretOverlapSeconds: number;
  /** Hours live events are kept for streams to resume from (EVENT_RETENTION_HOURS); older ones are pruned. */
  eventRetentionHours: number;
  /**
   * Live event streams (modules/events): a heartbeat every EVENT_STREAM_HEARTBEAT_SECONDS; each stream ended after
   * EVENT_STREAM_MAX_SECONDS (the client resumes from its last event id, and a revoked credential streams no longer);
   * at most this many frames, and bytes, wait for a connection to drain (fixed; tests lower them).
   */
  eventStream: { heartbeatMs: number; maxMs: number; backlogEvents: number; backlogBytes: number };
  /** Allow webhook URLs resolving to loopback, private or link-local addresses (refused by default). */
  webhookAllowPrivate: boolean;
  webhookTimeoutMs: number;
  /** Engine used by a PBX without enabled AMI settings: `simulated` (embedded default) or `none`. */
  pbxEngine: 'simulated' | 'none';
  /** AMI: TCP connect and banner time-out, and the wait for an action's response. */
  amiConnectTimeoutMs: number;
  amiActionTimeoutMs: number;
  /** Where a PBX's AMI settings may point (AMI_ALLOWED_HOSTS): networks and host names; empty admits none but loopback when allowed. */
  amiAllowedHosts: HostPattern[];
  /** Admit loopback AMI hosts (AMI_ALLOW_LOOPBACK): on by default outside production, never implicitly in production. */
  amiAllowLoopback: boolean;
  /** Listen to each enabled PBX's AMI events (Cdr, OriginateResponse, ...) in this process. */
  amiEventsEnabled: boolean;
  /** Seconds an instance holds a PBX's event listener lease unless it renews it (every third of it). */
  amiEventsLeaseSeconds: number;
  /** How long the call's connection waits for an early OriginateResponse (a failure answers 502). */
  amiOriginateWaitMs: number;
  /** Refused logins of the event listener in a row after which the settings are marked failing. */
  amiLoginFailureLimit: number;
  /** Seconds between the listener's attempts once its settings are failing (until they change). */
  amiFailingRetrySeconds: number;
  /** Seconds after origination when the simulated engine's call detail record is produced. */
  simulatedCdrDelaySeconds: number;
  /** `GET /cdrs/detail/{id}` requests per minute per user or API key. */
  cdrDetailRateLimitPerMinute: number;
  /** Web origins whose pages may call the API from a browser (CORS_ORIGINS, exact `scheme://host[:port]`); empty: CORS off. */
  corsOrigins: string[];
  /** Let those pages send credentials (cookies, HTTP authentication) with CORS requests (CORS_CREDENTIALS); bearer tokens need none. */
  corsCredentials: boolean;
  /** Bearer secret that `/metrics` requires (METRICS_TOKEN); null: none. */
  metricsToken: string | null;
  /** Serve `/metrics` on this address only, not beside the API (METRICS_LISTEN, `host:port`). */
  metricsListen: { host: string; port: number } | null;
  /** What an operator should hear at start (production on SQLite, without SMTP, without BASE_URL): one log line each. */
  startupWarnings: string[];
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

function atLeastOne(value: number, name: string): number {
  if (value < 1) throw new Error(`${name} must be at least 1, got ${value}`);
  return value;
}

function portFrom(value: string | undefined, fallback: number, name: string): number {
  const port = intFrom(value, fallback, name);
  if (port < 1 || port > 65535) throw new Error(`${name} must be a port number from 1 to 65535, got "${value}"`);
  return port;
}

function booleanFrom(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (value !== 'true' && value !== 'false') throw new Error(`${name} must be true or false, got "${value}"`);
  return value === 'true';
}

function logFormatFrom(value: string | undefined): Config['logFormat'] {
  if (value === undefined || value === '') return 'auto';
  if (value !== 'json' && value !== 'pretty' && value !== 'auto') throw new Error(`LOG_FORMAT must be json, pretty or auto, got "${value}"`);
  return value;
}

/** The levels pino knows; anything else would fail inside pino with a message about its internals. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevelFrom(value: string | undefined, fallback: string): string {
  if (value === undefined || value === '') return fallback;
  if (!LOG_LEVELS.includes(value)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  return value;
}

function pbxEngineFrom(value: string | undefined): Config['pbxEngine'] {
  if (value === undefined || value === '') return 'simulated';
  if (value !== 'simulated' && value !== 'none') throw new Error(`PBX_ENGINE must be simulated or none, got "${value}"`);
  return value;
}

/** A URL as it may be shown in an error or a log line: its password replaced. */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*:)[^@/?#\s]*@/i, '$1***@');
}

/**
 * DATABASE_URL: unset or empty is SQLite (the file at SQLITE_PATH); set, it must be a PostgreSQL
 * URL, `postgres://` or `postgresql://` in lower case, as the driver and `isPostgresUrl` read it.
 * Anything else (`mysql://`, `POSTGRES://`, a leading space, a bare path) stops the start rather
 * than leaving a production instance on SQLite. SQLite takes no URL here: its file is SQLITE_PATH.
 */
export function databaseUrlFrom(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (/^postgres(ql)?:\/\/\S*$/.test(value) && URL.canParse(value)) return value;
  const shown = withoutPassword(value);
  const hint =
    value.trim() !== value
      ? ' (it begins or ends with white space)'
      : /^postgres(ql)?:/i.test(value)
        ? ' (write the scheme in lower case: postgres://user@host:5432/db)'
        : /^(sqlite|file):|^[./~]|\.(sqlite3?|db)$/i.test(value)
          ? ' (for SQLite leave DATABASE_URL unset; SQLITE_PATH names the file)'
          : '';
  throw new Error(`DATABASE_URL must be a PostgreSQL URL (postgres://user@host:5432/db or postgresql://...), got "${shown}"${hint}`);
}

/**
 * Bytes of key material in SECRET_KEY, read as the SecretBox reads it: 64 hex characters are 32
 * bytes; other hex or base64 text counts what it decodes to; any other text (hashed with SHA-256
 * into the key) its UTF-8 bytes.
 */
export function secretKeyBytes(value: string): number {
  if (/^(?:[0-9a-f]{2})+$/i.test(value)) return value.length / 2;
  if (/^(?:[\w+/-]{4})*(?:[\w+/-]{2}(?:==)?|[\w+/-]{3}=?)?$/.test(value)) return Buffer.from(value, 'base64').length;
  return Buffer.byteLength(value, 'utf8');
}

function secretKeyFrom(value: string | undefined, nodeEnv: Config['env']): string {
  if (value === undefined || value === '') {
    if (nodeEnv === 'production') throw new Error('SECRET_KEY is required when NODE_ENV=production (32 random bytes: openssl rand -hex 32)');
    return DEVELOPMENT_SECRET_KEY;
  }
  const bytes = secretKeyBytes(value);
  if (bytes < 32) throw new Error(`SECRET_KEY must hold at least 32 bytes of key material (64 hex characters: openssl rand -hex 32), got ${bytes}`);
  return value;
}

/**
 * The address links and the OpenAPI document name when BASE_URL is not set. A wildcard HOST
 * (0.0.0.0, ::) is where the server listens, never an address to send a browser to: it becomes
 * 127.0.0.1 (IPv4) or localhost (:: listens on both families); another IPv6 address is bracketed.
 */
export function derivedBaseUrl(host: string, port: number): string {
  const bare = host.replace(/^\[|\]$/g, '');
  const wildcard = isIP(bare) === 4 ? bare === '0.0.0.0' : isIP(bare) === 6 && /^[0:]+$/.test(bare);
  const name = wildcard ? (isIP(bare) === 4 ? '127.0.0.1' : 'localhost') : isIP(bare) === 6 ? `[${bare}]` : bare;
  return `http://${name}:${port}/api/v1`;
}

/** In production, one line each for what works but is likely a mistake on a server. */
function productionWarnings(config: Config, baseUrlSet: boolean): string[] {
  if (config.env !== 'production') return [];
  const warnings: string[] = [];
  if (!config.databaseUrl) {
    warnings.push(
      `DATABASE_URL is not set: the data is in the SQLite file ${config.sqlitePath}, on this machine only (set DATABASE_URL=postgres://... for PostgreSQL)`,
    );
  }
  if (!config.smtpUrl) {
    warnings.push(`SMTP_URL is not set: login e-mails (magic links, one-time codes) are written to ${resolve(config.dataDir, 'outbox')} instead of being sent`);
  }
  if (!baseUrlSet) {
    warnings.push(`BASE_URL is not set: links, the OpenAPI servers entry and the docs page use ${config.baseUrl}; set the public address, ending in /api/v1`);
  }
  return warnings;
}

function atMost(value: number, max: number, name: string): number {
  if (value > max) throw new Error(`${name} must be at most ${max}, got ${value}`);
  return value;
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** `10.20.0.0/16,192.0.2.7,pbx.example.net,*.pbx.example.net`: comma-separated, each entry checked. */
export function parseHostPatterns(value: string | undefined, name: string): HostPattern[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  return entries.map((entry): HostPattern => {
    const [address, prefixText, ...rest] = entry.replace(/^\[|\](?=\/|$)/g, '').split('/');
    const family = isIP(address);
    if (family !== 0 && rest.length === 0) {
      const bits = family === 4 ? 32 : 128;
      const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
      if (!(prefix >= 0 && prefix <= bits)) throw new Error(`${name}: "${entry}" has an invalid prefix length`);
      return { kind: 'network', address, prefix, family: family === 4 ? 'ipv4' : 'ipv6' };
    }
    const wildcard = entry.startsWith('*.');
    const host = (wildcard ? entry.slice(2) : entry).replace(/\.$/, '');
    if (!HOST_NAME.test(host) || /^[\d.]+$/.test(host)) throw new Error(`${name}: "${entry}" is neither a CIDR, an address nor a host name`);
    return wildcard ? { kind: 'subdomains', suffix: `.${host}` } : { kind: 'name', name: host };
  });
}

/** `127.0.0.1:9100`, `[::1]:9100` or `metrics.internal:9100`. */
export function parseListenAddress(value: string | undefined, name: string): { host: string; port: number } | null {
  if (value === undefined || value === '') return null;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[3]) : NaN;
  if (!match || port > 65535) throw new Error(`${name} must be host:port (e.g. 127.0.0.1:9100), got "${value}"`);
  return { host: match[1] ?? match[2], port };
}

/** `https://app.example.com,http://localhost:5173`: exact origins, kept as browsers send them (lower case, no default port). */
export interface ApiServer {
  /** What the operator calls it (`production`, `staging`, `development`). */
  name: string;
  url: string;
}

/**
 * API_SERVERS: `name=url` pairs, comma-separated (`production=https://pbx.example.com/api/v1,...`).
 * Each address is absolute http(s) and ends in /api/v1, the contract's major version.
 */
export function parseApiServers(value: string | undefined): ApiServer[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const servers = entries.map((entry) => {
    const equals = entry.indexOf('=');
    const name = equals > 0 ? entry.slice(0, equals).trim() : '';
    const url = (equals > 0 ? entry.slice(equals + 1).trim() : entry).replace(/\/$/, '');
    if (!name) throw new Error(`API_SERVERS: "${entry}" has no name (write name=url, e.g. staging=https://staging.example.com/api/v1)`);
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search || parsed.hash || !parsed.pathname.endsWith('/api/v1')) {
      throw new Error(`API_SERVERS: the address of "${name}" must be an absolute http(s) URL ending in /api/v1, got "${url}"`);
    }
    return { name, url };
  });
  const names = servers.map((server) => server.name);
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new Error(`API_SERVERS: "${repeated}" is named twice`);
  return servers;
}

export function parseOrigins(value: string | undefined, name: string): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    const url = URL.canParse(entry) ? new URL(entry) : null;
    const isOrigin = url !== null && /^https?:$/.test(url.protocol) && !url.username && !url.password && url.pathname === '/' && !url.search && !url.hash;
    if (!isOrigin) throw new Error(`${name}: "${entry}" is not an origin (scheme://host[:port], no path; "*" is not accepted)`);
    return url.origin;
  });
}

/** A bearer secret from the environment: unset is null; a set one must not be guessable. */
function secretFrom(value: string | undefined, name: string): string | null {
  if (value === undefined || value === '') return null;
  if (value.length < 16 || /\s/.test(value)) throw new Error(`${name} must be at least 16 characters without spaces (e.g. openssl rand -hex 32)`);
  return value;
}

/** The longest overlap a signing-secret rotation may keep (seven days), in the setting and in a request. */
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 3600;

/** A stable development key so the embedded default works; production must set SECRET_KEY. */
const DEVELOPMENT_SECRET_KEY = '7062782d6170692d646576656c6f706d656e742d6b65792d6e6f742d73656372';

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const nodeEnv = env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'development';
  const dataDir = resolve(env.DATA_DIR ?? './data');
  const port = portFrom(env.PORT, 8080, 'PORT');
  const host = env.HOST || '127.0.0.1';
  const secretKey = secretKeyFrom(env.SECRET_KEY, nodeEnv);
  if (env.BASE_URL && !/^https?:\/\/[^/]/.test(env.BASE_URL)) throw new Error(`BASE_URL must be an absolute http(s) URL, got "${env.BASE_URL}"`);
  const tokenTtl = intFrom(env.USER_TOKEN_TTL_SECONDS, 30 * 24 * 3600, 'USER_TOKEN_TTL_SECONDS');
  const config: Config = {
    env: nodeEnv,
    host,
    port,
    baseUrl: (env.BASE_URL || derivedBaseUrl(host, port)).replace(/\/$/, ''),
    apiServers: parseApiServers(env.API_SERVERS),
    databaseUrl: databaseUrlFrom(env.DATABASE_URL),
    databasePoolSize: atLeastOne(intFrom(env.DATABASE_POOL_SIZE, 10, 'DATABASE_POOL_SIZE'), 'DATABASE_POOL_SIZE'),
    sqlitePath: resolve(env.SQLITE_PATH ?? `${dataDir}/pbx-api.sqlite`),
    dataDir,
    redisUrl: env.REDIS_URL || null,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'pbx-api:',
    secretKey,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'PBX API <no-reply@pbx-api.local>',
    logLevel: logLevelFrom(env.LOG_LEVEL, nodeEnv === 'test' ? 'silent' : 'info'),
    logFormat: logFormatFrom(env.LOG_FORMAT),
    scheduleSlotMinutes: atMost(
      atLeastOne(intFrom(env.SCHEDULE_SLOT_MINUTES, 30, 'SCHEDULE_SLOT_MINUTES'), 'SCHEDULE_SLOT_MINUTES'),
      720,
      'SCHEDULE_SLOT_MINUTES',
    ),
    rateLimitPerMinute: intFrom(env.RATE_LIMIT_PER_MINUTE, 120, 'RATE_LIMIT_PER_MINUTE'),
    cacheTtlMs: intFrom(env.CACHE_TTL_MS, 2000, 'CACHE_TTL_MS'),
    maxPageSize: intFrom(env.MAX_PAGE_SIZE, 100, 'MAX_PAGE_SIZE'),
    bodyLimitBytes: intFrom(env.BODY_LIMIT_BYTES, 1024 * 1024, 'BODY_LIMIT_BYTES'),
    passwordlessCodeTtlSeconds: intFrom(env.PASSWORDLESS_CODE_TTL_SECONDS, 600, 'PASSWORDLESS_CODE_TTL_SECONDS'),
    passwordlessResendCooldownSeconds: intFrom(env.PASSWORDLESS_RESEND_COOLDOWN_SECONDS, 60, 'PASSWORDLESS_RESEND_COOLDOWN_SECONDS'),
    passwordlessMaxAttempts: intFrom(env.PASSWORDLESS_MAX_ATTEMPTS, 5, 'PASSWORDLESS_MAX_ATTEMPTS'),
    magicLinkTtlSeconds: intFrom(env.MAGIC_LINK_TTL_SECONDS, 900, 'MAGIC_LINK_TTL_SECONDS'),
    userTokenTtlSeconds: tokenTtl === 0 ? null : tokenTtl,
    loginAttemptsPerWindow: intFrom(env.LOGIN_ATTEMPTS_PER_WINDOW, 10, 'LOGIN_ATTEMPTS_PER_WINDOW'),
    loginWindowSeconds: intFrom(env.LOGIN_WINDOW_SECONDS, 900, 'LOGIN_WINDOW_SECONDS'),
    seedDemo: booleanFrom(env.SEED_DEMO, nodeEnv !== 'production', 'SEED_DEMO'),
    trustProxy: booleanFrom(env.TRUST_PROXY, false, 'TRUST_PROXY'),
    jobWorkerEnabled: booleanFrom(env.JOB_WORKER, true, 'JOB_WORKER'),
    jobPollIntervalMs: intFrom(env.JOB_POLL_INTERVAL_MS, 1000, 'JOB_POLL_INTERVAL_MS'),
    jobLeaseSeconds: intFrom(env.JOB_LEASE_SECONDS, 60, 'JOB_LEASE_SECONDS'),
    importMaxBytes: intFrom(env.IMPORT_MAX_BYTES, 20 * 1024 * 1024, 'IMPORT_MAX_BYTES'),
    soundFileMaxBytes: atLeastOne(intFrom(env.SOUND_FILE_MAX_BYTES, 20 * 1024 * 1024, 'SOUND_FILE_MAX_BYTES'), 'SOUND_FILE_MAX_BYTES'),
    webhookSecretOverlapSeconds: atMost(
      intFrom(env.WEBHOOK_SECRET_OVERLAP_SECONDS, 24 * 3600, 'WEBHOOK_SECRET_OVERLAP_SECONDS'),
      MAX_SECRET_OVERLAP_SECONDS,
      'WEBHOOK_SECRET_OVERLAP_SECONDS',
    ),
    eventRetentionHours: atLeastOne(intFrom(env.EVENT_RETENTION_HOURS, 24, 'EVENT_RETENTION_HOURS'), 'EVENT_RETENTION_HOURS'),
    eventStream: {
      heartbeatMs: atLeastOne(intFrom(env.EVENT_STREAM_HEARTBEAT_SECONDS, 15, 'EVENT_STREAM_HEARTBEAT_SECONDS'), 'EVENT_STREAM_HEARTBEAT_SECONDS') * 1000,
      maxMs: atLeastOne(intFrom(env.EVENT_STREAM_MAX_SECONDS, 3600, 'EVENT_STREAM_MAX_SECONDS'), 'EVENT_STREAM_MAX_SECONDS') * 1000,
      backlogEvents: 1000,
      backlogBytes: 1024 * 1024,
    },
    webhookAllowPrivate: booleanFrom(env.WEBHOOK_ALLOW_PRIVATE, false, 'WEBHOOK_ALLOW_PRIVATE'),
    webhookTimeoutMs: intFrom(env.WEBHOOK_TIMEOUT_MS, 10_000, 'WEBHOOK_TIMEOUT_MS'),
    pbxEngine: pbxEngineFrom(env.PBX_ENGINE),
    amiConnectTimeoutMs: intFrom(env.AMI_CONNECT_TIMEOUT_MS, 5000, 'AMI_CONNECT_TIMEOUT_MS'),
    amiActionTimeoutMs: intFrom(env.AMI_ACTION_TIMEOUT_MS, 10_000, 'AMI_ACTION_TIMEOUT_MS'),
    amiAllowedHosts: parseHostPatterns(env.AMI_ALLOWED_HOSTS, 'AMI_ALLOWED_HOSTS'),
    amiAllowLoopback: booleanFrom(env.AMI_ALLOW_LOOPBACK, nodeEnv !== 'production', 'AMI_ALLOW_LOOPBACK'),
    amiEventsEnabled: booleanFrom(env.AMI_EVENTS, true, 'AMI_EVENTS'),
    amiEventsLeaseSeconds: atLeastOne(intFrom(env.AMI_EVENTS_LEASE_SECONDS, 30, 'AMI_EVENTS_LEASE_SECONDS'), 'AMI_EVENTS_LEASE_SECONDS'),
    amiOriginateWaitMs: intFrom(env.AMI_ORIGINATE_WAIT_MS, 1500, 'AMI_ORIGINATE_WAIT_MS'),
    amiLoginFailureLimit: atLeastOne(intFrom(env.AMI_LOGIN_FAILURE_LIMIT, 5, 'AMI_LOGIN_FAILURE_LIMIT'), 'AMI_LOGIN_FAILURE_LIMIT'),
    amiFailingRetrySeconds: atLeastOne(intFrom(env.AMI_FAILING_RETRY_SECONDS, 600, 'AMI_FAILING_RETRY_SECONDS'), 'AMI_FAILING_RETRY_SECONDS'),
    simulatedCdrDelaySeconds: intFrom(env.SIMULATED_CDR_DELAY_SECONDS, 5, 'SIMULATED_CDR_DELAY_SECONDS'),
    cdrDetailRateLimitPerMinute: intFrom(env.CDR_DETAIL_RATE_LIMIT_PER_MINUTE, 120, 'CDR_DETAIL_RATE_LIMIT_PER_MINUTE'),
    corsOrigins: parseOrigins(env.CORS_ORIGINS, 'CORS_ORIGINS'),
    corsCredentials: booleanFrom(env.CORS_CREDENTIALS, false, 'CORS_CREDENTIALS'),
    metricsToken: secretFrom(env.METRICS_TOKEN, 'METRICS_TOKEN'),
    metricsListen: parseListenAddress(env.METRICS_LISTEN, 'METRICS_LISTEN'),
    startupWarnings: [],
  };
  const merged = { ...config, ...overrides };
  return { ...merged, startupWarnings: overrides.startupWarnings ?? productionWarnings(merged, Boolean(env.BASE_URL)) };
}
