import { betterAuth } from 'better-auth';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/auth-schema.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { hashPassword, verifyPassword } from './password.ts';

/** The header through which the Fastify layer tells better-auth the client's address. */
export const CLIENT_IP_HEADER = 'x-client-panel-ip';

export const AUTH_BASE_PATH = '/api/auth';

export function createAuth(config: Config, database: Database) {
  return betterAuth({
    appName: 'Client Panel',
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: config.authSecret,
    trustedOrigins: config.acceptedOrigins,
    database: { db: database.db, type: database.dialect },
    user: {
      additionalFields: {
        // Set by the server only (input: false): the first account, or by an administrator.
        role: { type: 'string', required: false, defaultValue: 'operator', input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    // Sign-in and sign-up are limited per IP and per e-mail by our own limiter
    // (auth/rate-limiter.ts), which also sends the standard Retry-After header.
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    logger: { level: 'error' },
    advanced: {
      useSecureCookies: config.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.secureCookies },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
