import path from 'node:path';
import * as z from 'zod/mini';
import { isTimeZone } from './ledger/panel-date.ts';

export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; poolSize: number };

export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

interface HttpLimits {
  /** A connection with no bytes either way for this long is closed (a stalled body, say). */
  idleTimeoutMs: number;
  /** Headers must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (a body trickled byte by byte). */
  requestTimeoutMs: number;
  /** Open connections one address may hold; 0 for no cap (behind a proxy, cap there). */
  maxConnectionsPerAddress: number;
}

/** The live channel's limits, per instance (docs/decisions/0019-live-fan-out.md). */
export interface LiveLimits {
  /** Live sockets one operator may hold open; 0 for no cap. */
  maxSocketsPerOperator: number;
  /** Live sockets one client address may hold open; 0 for no cap. */
  maxSocketsPerAddress: number;
  /** Sockets written to between two yields to other requests. */
  socketsPerSlice: number;
  /** A socket with more than this unsent is too slow to keep: it is closed, and reconnects. */
  maxBufferedBytes: number;
}

/**
 * How long a session lasts (docs/decisions/0022-session-lifetime.md): it ends after
 * `idleSeconds` unused, and `maxAgeSeconds` after its sign-in however much it is used.
 */
export interface SessionLimits {
  /** An unused session ends this long after its last use; each use moves the end on. */
  idleSeconds: number;
  /** No session outlives its sign-in by more than this (ASVS 5.0 7.3.2). */
  maxAgeSeconds: number;
  /**
   * A used session's end is written at most this often, so that most reads stay reads: an
   * unused session ends between `idleSeconds - slideEverySeconds` and `idleSeconds` after
   * its last use.
   */
  slideEverySeconds: number;
}

/** Whole minutes and hours of SESSION_IDLE_MINUTES and SESSION_MAX_HOURS, in seconds. */
export function sessionLimits(idleMinutes: number, maxHours: number): SessionLimits {
  const idleSeconds = idleMinutes * 60;
  return {
    idleSeconds,
    maxAgeSeconds: maxHours * 3600,
    slideEverySeconds: Math.min(300, Math.floor(idleSeconds / 6)),
  };
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** Where the generated auth secret lives (and the default SQLite file). */
  dataDir: string;
  /** AUTH_SECRET, or the one start-up keeps in the data directory (startup.ts). */
  authSecret: string;
  /** The origin browsers use, e.g. http://localhost:3000 (no trailing slash). */
  publicUrl: string;
  /**
   * Origins allowed to make state-changing requests and open the live socket: PUBLIC_URL's
   * (and its loopback twins), and in development the web dev server's (DEV_WEB_ORIGIN).
   */
  acceptedOrigins: string[];
  secureCookies: boolean;
  logLevel: string;
  /** The panel's time zone (IANA name): the calendar days ledger entries are dated in. */
  timeZone: string;
  /** pretty for people at a terminal, json for log collectors. */
  logFormat: 'pretty' | 'json';
  /** Directory of the built web app; missing means the API runs alone. */
  webDistDir: string;
  /**
   * Which proxies' X-Forwarded-For to believe: false (none), a number of hops (1: the one
   * proxy in front), or the proxies' addresses. Never "every hop": the leftmost addresses
   * are whatever the client wrote.
   */
  trustProxy: false | number | string[];
  http: HttpLimits;
  live: LiveLimits;
  sessions: SessionLimits;
  rateLimits: SignInRateLimits & {
    signUpPerIp: RateLimitRule;
    signUpPerEmail: RateLimitRule;
  };
  account: AccountLimits;
  /**
   * Have I Been Pwned's Pwned Passwords (SHA-1, ordered by hash), downloaded by whoever runs
   * the panel: new passwords found in it are refused. Null: only the built-in common list.
   */
  breachedPasswordsFile: string | null;
}

/**
 * Where the auth secret comes from: AUTH_SECRET, or (SQLite without it) a file in the data
 * directory that start-up reads, or writes on the first start.
 */
export type AuthSecretSource = { kind: 'given'; secret: string } | { kind: 'file'; path: string };

/**
 * The environment parsed, with nothing read from or written to disk: start-up's prepareStartup
 * (startup.ts) checks the files it names and makes it the Config the app runs on.
 */
export type ParsedConfig = Omit<Config, 'authSecret'> & { authSecret: AuthSecretSource };

/** The signed-in operator's own account calls (auth/account-routes.ts). */
interface AccountLimits {
  /**
   * Wrong current passwords one operator may give (to change the password or e-mail): a
   * right one takes its count back, so only failures count.
   */
  wrongPasswordsPerOperator: RateLimitRule;
}

/** Sign-in counts failures only (docs/decisions/0018-sign-in-lockout.md). */
export interface SignInRateLimits {
  /** Failed sign-ins from one address, whatever the e-mail. */
  signInPerIp: RateLimitRule;
  /** Failed sign-ins for one e-mail from one address: past it, that pair is locked. */
  signInPerIpAndEmail: RateLimitRule;
  /**
   * Failed sign-ins for one e-mail from every address together: past it, an address that
   * has failed for the e-mail in its window may not try again, and one that has not gets
   * one try.
   */
  signInPerEmail: RateLimitRule;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

const DEFAULT_DATA_DIR = './data';
const DEFAULT_SQLITE_FILE = 'client-panel.db';
const AUTH_SECRET_FILE = '.auth-secret';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function readVariable<T>(
  env: NodeJS.ProcessEnv,
  name: string,
  schema: z.ZodMiniType<T>,
  fallback: string,
): T {
  const raw = env[name]?.trim() || fallback;
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(name, `${result.error.issues[0]?.message ?? 'invalid'} (got "${raw}")`);
  }
  return result.data;
}

const portSchema = z.coerce
  .number({ error: 'must be a whole number' })
  .check(
    z.refine(Number.isInteger, 'must be a whole number'),
    z.minimum(0, 'must be between 0 and 65535'),
    z.maximum(65535, 'must be between 0 and 65535'),
  );

const logLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
  error: 'must be one of fatal, error, warn, info, debug, trace, silent',
});

function parseDatabase(env: NodeJS.ProcessEnv): { database: DatabaseConfig; dataDir: string } {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) {
    return {
      database: { kind: 'sqlite', path: path.join(DEFAULT_DATA_DIR, DEFAULT_SQLITE_FILE) },
      dataDir: DEFAULT_DATA_DIR,
    };
  }
  if (/^postgres(ql)?:\/\//i.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError('DATABASE_URL', 'is not a valid PostgreSQL URL');
    }
    const poolSize = readVariable(
      env,
      'DATABASE_POOL_SIZE',
      z.coerce
        .number({ error: 'must be a whole number' })
        .check(
          z.refine(Number.isInteger, 'must be a whole number'),
          z.minimum(1, 'must be at least 1'),
          z.maximum(100, 'must be at most 100'),
        ),
      '10',
    );
    return { database: { kind: 'postgres', url: raw, poolSize }, dataDir: DEFAULT_DATA_DIR };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new ConfigError(
      'DATABASE_URL',
      'must be a postgres:// or postgresql:// URL, or a path to a SQLite file',
    );
  }
  if (raw === ':memory:') {
    return { database: { kind: 'sqlite', path: raw }, dataDir: DEFAULT_DATA_DIR };
  }
  return { database: { kind: 'sqlite', path: raw }, dataDir: path.dirname(raw) };
}

function parsePublicUrl(env: NodeJS.ProcessEnv, port: number): URL {
  const raw = env.PUBLIC_URL?.trim() || `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('PUBLIC_URL', `is not a URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('PUBLIC_URL', 'must start with http:// or https://');
  }
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError('PUBLIC_URL', 'must be an origin only, without a path');
  }
  return url;
}

/**
 * DEV_WEB_ORIGIN: the origin of Vite's dev server, which `npm run dev` sets and whose proxy
 * passes the page's Origin on. Unset (production), no origin but PUBLIC_URL's is accepted; set,
 * it must be on this machine's loopback, so that it can never open the panel to another site.
 */
function parseDevWebOrigins(env: NodeJS.ProcessEnv): string[] {
  const raw = env.DEV_WEB_ORIGIN?.trim();
  if (!raw) return [];
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('DEV_WEB_ORIGIN', `is not a URL (got "${raw}")`);
  }
  const originOnly = url.origin === raw.replace(/\/$/, '');
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname) || !originOnly) {
    throw new ConfigError(
      'DEV_WEB_ORIGIN',
      `must be an http origin on loopback, such as http://localhost:5173 (got "${raw}")`,
    );
  }
  // The page may be opened as localhost or as 127.0.0.1; either names the same dev server.
  const port = url.port ? `:${url.port}` : '';
  return [url.origin, `http://localhost${port}`, `http://127.0.0.1${port}`];
}

/**
 * AUTH_SECRET, or where the secret generated on a first start is kept, so that restarts keep
 * sessions valid. PostgreSQL has no such file: every instance must be given the same secret.
 */
function parseAuthSecret(
  env: NodeJS.ProcessEnv,
  database: DatabaseConfig,
  dataDir: string,
): AuthSecretSource {
  const given = env.AUTH_SECRET?.trim();
  if (given) {
    if (given.length < 32) throw new ConfigError('AUTH_SECRET', 'must be at least 32 characters');
    return { kind: 'given', secret: given };
  }
  if (database.kind === 'postgres') {
    throw new ConfigError(
      'AUTH_SECRET',
      'is required when DATABASE_URL is PostgreSQL (every instance must share it)',
    );
  }
  return { kind: 'file', path: path.join(dataDir, AUTH_SECRET_FILE) };
}

const countSchema = z.coerce
  .number({ error: 'must be a whole number' })
  .check(z.refine(Number.isInteger, 'must be a whole number'), z.minimum(0, 'must be 0 or more'));

/**
 * TRUST_PROXY: true (one proxy in front: its address for the client is the last one in
 * X-Forwarded-For), a number of proxy hops, or a comma-separated list of proxy addresses or
 * ranges; false or 0 for none.
 */
function parseTrustProxy(raw: string): false | number | string[] {
  if (raw === 'false' || raw === '0') return false;
  if (raw === 'true') return 1;
  if (/^\d+$/.test(raw)) return Number(raw);
  const addresses = raw.split(',').map((part) => part.trim());
  if (addresses.every((part) => /^[0-9a-f.:]+(\/\d{1,3})?$/i.test(part))) return addresses;
  throw new ConfigError(
    'TRUST_PROXY',
    `must be true, false, a number of proxy hops or a list of proxy addresses (got "${raw}")`,
  );
}

/** The file's path only: start-up checks that it can be read. */
function parseBreachedPasswordsFile(env: NodeJS.ProcessEnv): string | null {
  const given = env.BREACHED_PASSWORDS_FILE?.trim();
  return given ? path.resolve(given) : null;
}

/**
 * Parses and validates the environment once, touching nothing else; a bad value throws a
 * ConfigError naming it. Whether stdout is a terminal decides the default log format.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv,
  { stdoutIsTty = false }: { stdoutIsTty?: boolean } = {},
): ParsedConfig {
  const port = readVariable(env, 'PORT', portSchema, '3000');
  const host = readVariable(env, 'HOST', z.string().check(z.minLength(1)), '127.0.0.1');
  const { database, dataDir } = parseDatabase(env);
  const publicUrl = parsePublicUrl(env, port);
  const logLevel = readVariable(env, 'LOG_LEVEL', logLevelSchema, 'info');
  const trustProxy = parseTrustProxy(env.TRUST_PROXY?.trim() || 'false');
  const logFormat = readVariable(
    env,
    'LOG_FORMAT',
    z.enum(['pretty', 'json'], { error: 'must be pretty or json' }),
    stdoutIsTty ? 'pretty' : 'json',
  );
  const timeZone = readVariable(
    env,
    'TIME_ZONE',
    z.string().check(z.refine(isTimeZone, 'must be a time zone name such as Asia/Kolkata')),
    'Asia/Kolkata',
  );
  const maxConnectionsPerAddress = readVariable(
    env,
    'MAX_CONNECTIONS_PER_ADDRESS',
    countSchema,
    trustProxy === false ? '256' : '0',
  );
  const liveSocketsPerOperator = readVariable(
    env,
    'LIVE_MAX_SOCKETS_PER_OPERATOR',
    countSchema,
    '50',
  );
  const liveSocketsPerAddress = readVariable(
    env,
    'LIVE_MAX_SOCKETS_PER_ADDRESS',
    countSchema,
    '200',
  );
  // NIST SP 800-63B's AAL2 session: re-authentication after 30 minutes unused and at least
  // every 12 hours (docs/decisions/0022-session-lifetime.md).
  const sessionIdleMinutes = readVariable(
    env,
    'SESSION_IDLE_MINUTES',
    countSchema.check(z.minimum(1, 'must be 1 or more')),
    '30',
  );
  const sessionMaxHours = readVariable(
    env,
    'SESSION_MAX_HOURS',
    countSchema.check(
      z.minimum(1, 'must be 1 or more'),
      // NIST's longest, for its lowest level (AAL1): 30 days.
      z.maximum(720, 'must be at most 720 (30 days)'),
    ),
    '12',
  );
  if (sessionIdleMinutes > sessionMaxHours * 60) {
    throw new ConfigError(
      'SESSION_IDLE_MINUTES',
      `must not be longer than SESSION_MAX_HOURS (got ${sessionIdleMinutes} minutes, ${sessionMaxHours} hours)`,
    );
  }
  // An office behind one address (NAT) may register many people in an hour.
  const signUpsPerAddress = readVariable(
    env,
    'SIGN_UPS_PER_ADDRESS_PER_HOUR',
    countSchema.check(z.minimum(1, 'must be 1 or more')),
    '20',
  );
  const breachedPasswordsFile = parseBreachedPasswordsFile(env);
  const authSecret = parseAuthSecret(env, database, dataDir);
  const acceptedOrigins = [publicUrl.origin];
  if (LOOPBACK_HOSTS.has(host) || LOOPBACK_HOSTS.has(publicUrl.hostname)) {
    acceptedOrigins.push(`http://127.0.0.1:${port}`, `http://localhost:${port}`);
  }
  acceptedOrigins.push(...parseDevWebOrigins(env));
  return {
    port,
    host,
    database,
    dataDir,
    authSecret,
    publicUrl: publicUrl.origin,
    acceptedOrigins: [...new Set(acceptedOrigins)],
    secureCookies: publicUrl.protocol === 'https:',
    logLevel,
    timeZone,
    logFormat,
    webDistDir: path.resolve(env.WEB_DIST_DIR?.trim() || 'dist/web'),
    trustProxy,
    http: {
      idleTimeoutMs: 10_000,
      headersTimeoutMs: 10_000,
      // Generous for a 10 MiB import on a slow uplink; a stalled one is cut by the idle timeout.
      requestTimeoutMs: 60_000,
      maxConnectionsPerAddress,
    },
    live: {
      maxSocketsPerOperator: liveSocketsPerOperator,
      maxSocketsPerAddress: liveSocketsPerAddress,
      // About 3 ms of writes on a small machine: other requests wait at most that long.
      socketsPerSlice: 200,
      // Far more than a burst of events: a socket this far behind has stopped reading.
      maxBufferedBytes: 256 * 1024,
    },
    sessions: sessionLimits(sessionIdleMinutes, sessionMaxHours),
    rateLimits: {
      signInPerIp: { max: 30, windowSeconds: 600 },
      signInPerIpAndEmail: { max: 10, windowSeconds: 600 },
      // Twice one address's allowance: a lone attacker cannot put the e-mail in one-try mode.
      signInPerEmail: { max: 20, windowSeconds: 600 },
      signUpPerIp: { max: signUpsPerAddress, windowSeconds: 3600 },
      signUpPerEmail: { max: 5, windowSeconds: 3600 },
    },
    // Someone at an unattended, signed-in screen gets 5 guesses at the password per 15 minutes.
    account: { wrongPasswordsPerOperator: { max: 5, windowSeconds: 900 } },
    breachedPasswordsFile,
  };
}
