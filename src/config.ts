import { z } from 'zod';

/** Bodies over 1 MiB → 413 payload_too_large, the one check made before authentication. */
export const BODY_LIMIT = 1024 * 1024;

const Bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const RateLimits = z
  .string()
  .regex(/^(anon|preauth|key|ucp):\d+(,(anon|preauth|key|ucp):\d+)*$/, 'expected e.g. anon:60,preauth:120,key:600,ucp:600')
  .transform((value) => Object.fromEntries(value.split(',').map((pair) => {
    const [name, quota] = pair.split(':');
    return [name, Number(quota)];
  })) as Partial<Record<'anon' | 'preauth' | 'key' | 'ucp', number>>);

/** Digits only: z.coerce.number() would read " " as 0 (a random port) and "1e3" or "0x50" as numbers. */
const WholeNumber = z.string().trim().regex(/^\d+$/, 'expected a whole number').transform(Number);

const SIZE_UNITS = { kB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 } as const;

/** A size as PostgreSQL writes one: `64MB`, `512kB`, `1GB`. */
const Size = z
  .string()
  .trim()
  .regex(/^\d+\s*(kB|MB|GB)$/, 'expected a size such as 64MB, 512kB or 1GB')
  .transform((value) => {
    const [, amount = '0', unit = 'MB'] = /^(\d+)\s*(kB|MB|GB)$/.exec(value) ?? [];
    return Number(amount) * SIZE_UNITS[unit as keyof typeof SIZE_UNITS];
  });

/** A comma-separated list of platform profile URLs, each kept as the URL parser writes it so a comparison is exact. */
const ProfileUrls = z
  .string()
  .transform((value) => value.split(',').map((url) => url.trim()).filter(Boolean))
  .refine((urls) => urls.every((url) => z.url({ protocol: /^https?$/ }).safeParse(url).success), 'expected platform profile URLs (http or https), separated by commas')
  .transform((urls) => urls.map((url) => new URL(url).href));

/** Every variable of docs/behaviour.md#running-it and docs/behaviour.md#rate-limits; parsed once at start-up. */
const Env = z.object({
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: WholeNumber.pipe(z.int().min(0).max(65535)).default(3000),
  BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://').optional(),
  BUTIK_DATA_DIR: z.string().min(1).default('./.butik'),
  BUTIK_SEED: z.enum(['demo', 'none']).default('demo'),
  BUTIK_EMBEDDED_MEMORY: Size.pipe(z.number().min(16 * 1024 ** 2, 'must be at least 16MB').max(64 * 1024 ** 3, 'must be at most 64GB')).optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  BUTIK_REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _ . : - only').default('butik'),
  BUTIK_MASTER_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  BUTIK_TRUST_PROXY: Bool.default(false),
  BUTIK_RATE_LIMITS: RateLimits.optional(),
  BUTIK_RATE_WINDOW_S: WholeNumber.pipe(z.int().min(1).max(86_400)).default(60),
  BUTIK_ALLOWED_ORIGINS: z.string().optional(),
  BUTIK_REQUEST_TIMEOUT_MS: WholeNumber.pipe(z.int().min(1_000).max(600_000)).default(30_000),
  BUTIK_HEADERS_TIMEOUT_MS: WholeNumber.pipe(z.int().min(1_000).max(600_000)).default(10_000),
  BUTIK_SHUTDOWN_GRACE_MS: WholeNumber.pipe(z.int().min(0).max(600_000)).default(10_000),
  BUTIK_DB_STATEMENT_TIMEOUT_MS: WholeNumber.pipe(z.int().min(100).max(3_600_000)).default(15_000),
  BUTIK_DB_ACQUIRE_TIMEOUT_MS: WholeNumber.pipe(z.int().min(100).max(600_000)).default(5_000),
  BUTIK_UCP_MODE: z.enum(['off', 'test', 'live']).default('off'),
  BUTIK_UCP_PAYMENT_HANDLERS: z.string().min(1).optional(),
  BUTIK_UCP_SAVED_ADDRESSES: Bool.default(false),
  BUTIK_UCP_TRUSTED_PLATFORMS: ProfileUrls.optional(),
  BUTIK_UCP_AUTH: z.enum(['open', 'key']).default('open'),
  BUTIK_UCP_SIMULATION_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  BUTIK_UCP_SIGNATURES: z.enum(['required', 'optional']).optional(),
  // A date; whether Butik implements that version is the UCP face's to say when it starts (ucp/face-settings.ts).
  BUTIK_UCP_VERSION: z.iso.date('expected a UCP version, a date such as 2026-01-11').optional(),
  BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS: Bool.default(false),
  BUTIK_ADMIN_IDLE_MINUTES: WholeNumber.pipe(z.int().min(1).max(7 * 24 * 60)).default(8 * 60),
  BUTIK_TIME_ZONE: z.string().refine((zone) => Intl.supportedValuesOf('timeZone').includes(zone) || zone === 'UTC', 'an IANA time zone, e.g. Europe/Copenhagen').default('Europe/Copenhagen'),
  BUTIK_APPROVALS_WEBHOOK: z.url({ protocol: /^https?$/ }).optional(),
  BUTIK_APPROVALS_WEBHOOK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).default('json'),
});

export type Config = {
  host: string;
  port: number;
  /** Undefined until the port is known when PORT=0; see resolveBaseUrl. */
  baseUrl: string | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
  seed: 'demo' | 'none';
  /** The embedded database's memory budget in bytes; undefined → its small-shop default. */
  embeddedMemoryBytes: number | undefined;
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so several deployments (or test runs) can share one Redis. */
  redisPrefix: string;
  masterKey: string | undefined;
  trustProxy: boolean;
  /** Per policy; `ucp` counts the UCP checkout routes per IP. */
  rateLimits: { anon: number; preauth: number; key: number; ucp: number };
  rateWindowSeconds: number;
  allowedOrigins: string[];
  /** PostgreSQL only: how long one statement may run, and how long a request waits for a pooled connection. */
  db: { statementTimeoutMs: number; acquireTimeoutMs: number };
  /** Slow clients: a whole request must arrive within requestTimeoutMs, its headers within headersTimeoutMs. */
  http: { requestTimeoutMs: number; headersTimeoutMs: number };
  /** SIGTERM: in-flight requests get this long to finish before the remaining connections are cut. */
  shutdownGraceMs: number;
  /**
   * The UCP door for shopping agents (docs/ucp.md#switching-it-on): off, test (the mock processor, loopback URLs allowed) or live;
   * the file declaring the payment handlers it advertises, which the UCP face reads and checks when it starts.
   */
  ucp: {
    mode: 'off' | 'test' | 'live';
    paymentHandlersFile: string | undefined;
    /** Test mode only: the secret that opens POST /testing/simulate-shipping/{orderId}. */
    simulationSecret: string | undefined;
    /** Offer known buyers their saved addresses and save the ones they ship to. */
    savedAddresses: boolean;
    /**
     * The platforms (profile URLs) the owner trusts to have verified their buyers' e-mails: those are offered the
     * addresses known for the e-mail a session names (ucp/identity/trusted-platforms.ts). Empty by default.
     */
    trustedPlatforms: string[];
    /** open: guest checkout, the session or order id is the capability; key: an API key with scope ucp:checkout. */
    auth: 'open' | 'key';
    /** required: every platform request carries an RFC 9421 signature (always in live mode); optional: checked when sent. */
    signatures: 'required' | 'optional';
    /**
     * The protocol version /.well-known/ucp declares, as given (unset: the newest); the UCP face checks that Butik
     * implements it. Older ones are served beside it, newer ones refused.
     */
    version: string | undefined;
  };
  /**
   * OAuth client metadata documents (an MCP host's URL client_id) may also be read from loopback http URLs
   * (http://127.0.0.1:<port>/…, http://localhost:…), for tests and hosts run on this machine; never in a live deployment.
   */
  oauth: { loopbackClientDocuments: boolean };
  /** The /admin console: a session ends after this long without a request; dates are shown in timeZone. */
  admin: { idleMinutes: number; timeZone: string };
  /** Where each new pending approval is POSTed, signed with the secret (docs/behaviour.md#approval-webhook). */
  approvalsWebhook: { url: string; secret: string } | undefined;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  /** json: one JSON line per event, for log shippers; pretty: coloured lines for people at a terminal. */
  logFormat: 'json' | 'pretty';
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.BUTIK_UCP_SIMULATION_SECRET !== undefined && e.BUTIK_UCP_MODE !== 'test') {
    throw new ConfigError('Invalid configuration:\n  BUTIK_UCP_SIMULATION_SECRET: only test mode (BUTIK_UCP_MODE=test) simulates shipping');
  }
  if ((e.BUTIK_APPROVALS_WEBHOOK === undefined) !== (e.BUTIK_APPROVALS_WEBHOOK_SECRET === undefined)) {
    throw new ConfigError('Invalid configuration:\n  BUTIK_APPROVALS_WEBHOOK: give it together with BUTIK_APPROVALS_WEBHOOK_SECRET, which signs each delivery');
  }
  if (e.BUTIK_UCP_SIGNATURES === 'optional' && e.BUTIK_UCP_MODE === 'live') {
    throw new ConfigError('Invalid configuration:\n  BUTIK_UCP_SIGNATURES: live mode requires signed platform requests; optional is for test mode');
  }
  const trustedPlatforms = e.BUTIK_UCP_TRUSTED_PLATFORMS ?? [];
  if (trustedPlatforms.length > 0 && !e.BUTIK_UCP_SAVED_ADDRESSES) {
    throw new ConfigError('Invalid configuration:\n  BUTIK_UCP_TRUSTED_PLATFORMS: offers saved addresses, so it needs BUTIK_UCP_SAVED_ADDRESSES=true');
  }
  if (believesUnsignedClaims(e.BUTIK_UCP_MODE, e.BUTIK_UCP_SIGNATURES) && trustedPlatforms.length > 0 && !isLoopbackHost(e.HOST)) {
    throw new ConfigError('Invalid configuration:\n  BUTIK_UCP_TRUSTED_PLATFORMS: test mode believes an unsigned UCP-Agent naming a '
      + `trusted platform, so anyone who can reach HOST=${e.HOST} could claim to be one and read imported customers' `
      + 'addresses. Listen on loopback (HOST=127.0.0.1), or set BUTIK_UCP_SIGNATURES=required so only signed requests count');
  }
  if (e.BUTIK_UCP_MODE === 'live' && trustedPlatforms.some((url) => !url.startsWith('https:'))) {
    throw new ConfigError('Invalid configuration:\n  BUTIK_UCP_TRUSTED_PLATFORMS: live mode reads platform profiles over https only');
  }
  if (e.BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS && (e.BUTIK_UCP_MODE === 'live' || e.BASE_URL?.startsWith('https:'))) {
    throw new ConfigError('Invalid configuration:\n  BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS: reads client metadata documents from '
      + 'loopback http URLs, for tests and local hosts only; a live deployment (BUTIK_UCP_MODE=live or an https BASE_URL) '
      + 'reads them over https from public addresses. Remove the setting');
  }
  return {
    host: e.HOST,
    port: e.PORT,
    baseUrl: e.BASE_URL?.replace(/\/+$/, ''),
    databaseUrl: e.DATABASE_URL,
    dataDir: e.BUTIK_DATA_DIR,
    seed: e.BUTIK_SEED,
    embeddedMemoryBytes: e.BUTIK_EMBEDDED_MEMORY,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.BUTIK_REDIS_PREFIX,
    masterKey: e.BUTIK_MASTER_KEY,
    trustProxy: e.BUTIK_TRUST_PROXY,
    rateLimits: { anon: 60, preauth: 120, key: 600, ucp: 600, ...e.BUTIK_RATE_LIMITS },
    rateWindowSeconds: e.BUTIK_RATE_WINDOW_S,
    allowedOrigins: (e.BUTIK_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    db: { statementTimeoutMs: e.BUTIK_DB_STATEMENT_TIMEOUT_MS, acquireTimeoutMs: e.BUTIK_DB_ACQUIRE_TIMEOUT_MS },
    http: { requestTimeoutMs: e.BUTIK_REQUEST_TIMEOUT_MS, headersTimeoutMs: e.BUTIK_HEADERS_TIMEOUT_MS },
    shutdownGraceMs: e.BUTIK_SHUTDOWN_GRACE_MS,
    ucp: {
      mode: e.BUTIK_UCP_MODE,
      paymentHandlersFile: e.BUTIK_UCP_PAYMENT_HANDLERS,
      simulationSecret: e.BUTIK_UCP_SIMULATION_SECRET,
      savedAddresses: e.BUTIK_UCP_SAVED_ADDRESSES,
      trustedPlatforms,
      auth: e.BUTIK_UCP_AUTH,
      signatures: e.BUTIK_UCP_SIGNATURES ?? (e.BUTIK_UCP_MODE === 'live' ? 'required' : 'optional'),
      version: e.BUTIK_UCP_VERSION,
    },
    oauth: { loopbackClientDocuments: e.BUTIK_OAUTH_LOOPBACK_CLIENT_DOCUMENTS },
    admin: { idleMinutes: e.BUTIK_ADMIN_IDLE_MINUTES, timeZone: e.BUTIK_TIME_ZONE },
    approvalsWebhook: e.BUTIK_APPROVALS_WEBHOOK && e.BUTIK_APPROVALS_WEBHOOK_SECRET
      ? { url: e.BUTIK_APPROVALS_WEBHOOK, secret: e.BUTIK_APPROVALS_WEBHOOK_SECRET } : undefined,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
  };
}

/**
 * Test mode with optional signatures believes an unsigned UCP-Agent naming a trusted platform (what conformance
 * suites send); only a server that nobody else can reach may do that (docs/ucp.md#trusted-platforms).
 */
export function believesUnsignedClaims(mode: 'off' | 'test' | 'live', signatures: 'required' | 'optional' | undefined): boolean {
  return mode === 'test' && signatures !== 'required';
}

/** HOST names a loopback interface: 127.0.0.0/8, ::1 or localhost. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The address this process listens on, as a URL (an IPv6 host in brackets). */
export function listenUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** BASE_URL: the configured public address, else where this process listens. */
export function resolveBaseUrl(config: Config, port: number): string {
  return config.baseUrl ?? listenUrl(config.host, port);
}
