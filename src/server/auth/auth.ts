import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import type { FastifyBaseLogger } from 'fastify';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../shared/auth-schema.ts';
import { ACCOUNT_DEACTIVATED_MESSAGE } from '../../shared/operator-list-schema.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { isDeactivated } from '../operators/operators-repository.ts';
import { hashPassword, verifyPassword } from './password.ts';
import {
  handOverResetToken,
  hashVerificationIdentifier,
  RESET_LINK_LIFETIME_SECONDS,
} from './reset-links.ts';
import { cookiePrefix, firstSessionEnd } from './session.ts';
import { twoFactorPlugin } from './two-factor.ts';

/** The header through which the Fastify layer tells better-auth the client's address. */
export const CLIENT_IP_HEADER = 'x-client-panel-ip';

export const AUTH_BASE_PATH = '/api/auth';

/** better-auth's code for our refusal of a deactivated operator (auth-bridge.ts maps it). */
export const ACCOUNT_DEACTIVATED_CODE = 'ACCOUNT_DEACTIVATED';

type AuthLogLevel = 'debug' | 'info' | 'warn' | 'error';
type AuthLog = (level: AuthLogLevel, message: string, args: unknown[]) => void;

/** Where each auth instance's own log lines go: see `logAuthTo`. */
const authLogs = new WeakMap<object, { write: AuthLog }>();

/**
 * better-auth's own lines (its default is coloured, multi-line text on the standard error,
 * which broke a reader of the JSON log), as one JSON line on the standard error until the
 * app's logger takes them (`logAuthTo`).
 */
const beforeTheApp: AuthLog = (level, message, args) => {
  const error = args.find((arg) => arg instanceof Error);
  process.stderr.write(
    `${JSON.stringify({ level, time: Date.now(), msg: `better-auth: ${message}`, ...(error ? { err: { message: error.message } } : {}) })}\n`,
  );
};

/** Sends an auth instance's own log lines to the app's logger, as every other line. */
export function logAuthTo(auth: Auth, logger: FastifyBaseLogger): void {
  const sink = authLogs.get(auth);
  if (!sink) return;
  sink.write = (level, message, args) => {
    const error = args.find((arg) => arg instanceof Error);
    logger[level](error ? { err: error } : {}, `better-auth: ${message}`);
  };
}

export function createAuth(config: Config, database: Database) {
  const sink = { write: beforeTheApp };
  const auth = createBetterAuth(config, database, sink);
  authLogs.set(auth, sink);
  return auth;
}

function createBetterAuth(config: Config, database: Database, log: { write: AuthLog }) {
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
      // No e-mail: an administrator hands the operator a one-time link (auth/reset-links.ts).
      sendResetPassword: handOverResetToken,
      resetPasswordTokenExpiresIn: RESET_LINK_LIFETIME_SECONDS,
      revokeSessionsOnPasswordReset: true,
    },
    // Sessions end after config.sessions.idleSeconds unused, and at the latest maxAgeSeconds
    // after sign-in. better-auth makes them; our session reader moves their end on as they
    // are used (auth/session.ts), never past the maximum. better-auth's own refresh would
    // push it to now + expiresIn, past that maximum: it is off. The cookie lasts as long as
    // a session may; the session row decides whether it still works.
    session: { expiresIn: config.sessions.maxAgeSeconds, disableSessionRefresh: true },
    databaseHooks: {
      session: {
        create: {
          before: async (session) => {
            // Counted from the row's own creation time: exactly the idle time after it, not a
            // millisecond or more later (nor after the lookup below).
            const madeAt = new Date(session.createdAt ?? Date.now()).getTime();
            const expiresAt = firstSessionEnd(config.sessions, madeAt);
            // Sign-in reaches this only once the password was verified, so an unknown e-mail
            // and a wrong password still do the same work; the refusal names the reason, as
            // only someone who knows the password sees it
            // (docs/decisions/0025-deactivating-operators.md).
            if (await isDeactivated(database, session.userId)) {
              throw new APIError('FORBIDDEN', {
                message: ACCOUNT_DEACTIVATED_MESSAGE,
                code: ACCOUNT_DEACTIVATED_CODE,
              });
            }
            return { data: { ...session, expiresAt } };
          },
        },
      },
    },
    // Reset tokens are kept as digests only (auth/reset-links.ts).
    verification: { storeIdentifier: { hash: hashVerificationIdentifier } },
    // Sign-in and sign-up are limited per IP and per e-mail by our own limiter
    // (auth/rate-limiter.ts), which also sends the standard Retry-After header.
    rateLimit: { enabled: false },
    // TOTP and backup codes (docs/decisions/0026-two-factor-sign-in.md). Its endpoints are
    // reached only through our routes (auth/two-factor-routes.ts), as every auth path is.
    plugins: [twoFactorPlugin()],
    telemetry: { enabled: false },
    logger: {
      level: 'error',
      log: (level, message, ...args: unknown[]) => log.write(level, message, args),
    },
    advanced: {
      // Our own rule (http/security.ts) already refuses every state-changing request from a
      // foreign origin, these included, and lets through requests from no page at all (an API
      // client sends no Origin). better-auth's check would refuse those with a cookie, but
      // only in production, as it is off under a test runner: one rule, tested in both.
      disableOriginCheck: true,
      disableCSRFCheck: true,
      // One query for the sign-in's user and account, found or not, so that an unknown e-mail
      // takes the same path as a wrong password (docs/decisions/0018-sign-in-lockout.md).
      database: { joins: true },
      // The names carry our prefix (`__Host-` over https: session.ts); better-auth's own
      // secure prefix (`__Secure-`) would go in front of it.
      useSecureCookies: false,
      cookiePrefix: cookiePrefix(config),
      defaultCookieAttributes: {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.secureCookies,
        path: '/',
      },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
  });
}

export type Auth = ReturnType<typeof createBetterAuth>;
