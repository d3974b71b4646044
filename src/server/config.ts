import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export type DatabaseConfig =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; poolSize: number };

export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** Where the generated auth secret lives (and the default SQLite file). */
  dataDir: string;
  authSecret: string;
  /** The origin browsers use, e.g. http://localhost:3000 (no trailing slash). */
  publicUrl: string;
  /** Origins allowed to make state-changing requests and open the live socket. */
  acceptedOrigins: string[];
  secureCookies: boolean;
  logLevel: string;
  /** Directory of the built web app; missing means the API runs alone. */
  webDistDir: string;
  trustProxy: boolean;
  rateLimits: {
    signInPerIp: RateLimitRule;
    signInPerEmail: RateLimitRule;
    signUpPerIp: RateLimitRule;
    signUpPerEmail: RateLimitRule;
  };
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

export const DEFAULT_DATA_DIR = './data';
export const DEFAULT_SQLITE_FILE = 'client-panel.db';
const AUTH_SECRET_FILE = '.auth-secret';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function readVariable<T>(
  env: NodeJS.ProcessEnv,
  name: string,
  schema: z.ZodType<T>,
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
  .int('must be a whole number')
  .min(0, 'must be between 0 and 65535')
  .max(65535, 'must be between 0 and 65535');

const logLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
  error: 'must be one of fatal, error, warn, info, debug, trace, silent',
});

const booleanSchema = z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' });

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
      z.coerce.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100'),
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
 * Reads AUTH_SECRET, or the secret generated on a first start and kept in the data
 * directory, so that restarts keep sessions valid.
 */
function resolveAuthSecret(
  env: NodeJS.ProcessEnv,
  database: DatabaseConfig,
  dataDir: string,
): string {
  const given = env.AUTH_SECRET?.trim();
  if (given) {
    if (given.length < 32) throw new ConfigError('AUTH_SECRET', 'must be at least 32 characters');
    return given;
  }
  if (database.kind === 'postgres') {
    throw new ConfigError(
      'AUTH_SECRET',
      'is required when DATABASE_URL is PostgreSQL (every instance must share it)',
    );
  }
  const file = path.join(dataDir, AUTH_SECRET_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length >= 32) return stored;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** Parses and validates the environment once; a bad value throws a ConfigError naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = readVariable(env, 'PORT', portSchema, '3000');
  const host = readVariable(env, 'HOST', z.string().min(1), '127.0.0.1');
  const { database, dataDir } = parseDatabase(env);
  const publicUrl = parsePublicUrl(env, port);
  const logLevel = readVariable(env, 'LOG_LEVEL', logLevelSchema, 'info');
  const trustProxy = ['true', '1'].includes(
    readVariable(env, 'TRUST_PROXY', booleanSchema, 'false'),
  );
  const authSecret = resolveAuthSecret(env, database, dataDir);
  const acceptedOrigins = [publicUrl.origin];
  if (LOOPBACK_HOSTS.has(host) || LOOPBACK_HOSTS.has(publicUrl.hostname)) {
    acceptedOrigins.push(`http://127.0.0.1:${port}`, `http://localhost:${port}`);
  }
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
    webDistDir: path.resolve(env.WEB_DIST_DIR?.trim() || 'dist/web'),
    trustProxy,
    rateLimits: {
      signInPerIp: { max: 30, windowSeconds: 600 },
      signInPerEmail: { max: 10, windowSeconds: 600 },
      signUpPerIp: { max: 20, windowSeconds: 3600 },
      signUpPerEmail: { max: 5, windowSeconds: 3600 },
    },
  };
}
