import { parse as parseCookies } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorMessage } from '../../shared/error-messages.ts';
import { isTotpCode, normaliseCode, TOTP_PERIOD_SECONDS } from '../../shared/two-factor-schema.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { fieldRefusal, HttpError } from '../http/errors.ts';
import type { Auth } from './auth.ts';
import { type AuthAnswer, authErrorCode, type createAuthBridge } from './auth-bridge.ts';
import { createRateLimiter, refundRateLimit } from './rate-limiter.ts';
import { cookiePrefix, verifySessionCookie } from './session.ts';
import { backupCodeDigest } from './two-factor.ts';
import { twoFactorLockedUntil } from './two-factor-repository.ts';

type Bridge = ReturnType<typeof createAuthBridge>;

export const TOO_MANY_WRONG_CODES_MESSAGE = errorMessage('two-factor-locked');
/** A sign-in whose password was right, waiting for its code. */
interface Challenge {
  userId: string;
  /** The challenge cookie's value (signed), all that is passed on to better-auth. */
  signed: string;
}

/**
 * An authenticator app's code is accepted in its own 30-second step and the one either side
 * (better-auth's window of 1), so for up to 90 seconds: that long, a code once used is
 * refused (ASVS 6.5.1), even to the same operator on another device.
 */
export const USED_CODE_RULE = { max: 1, windowSeconds: 3 * TOTP_PERIOD_SECONDS };

/** The rate_limits key that marks an app code as used by one operator. */
export function usedCodeKey(userId: string, code: string): string {
  return `second-factor:used:${userId}:${code}`;
}

interface SecondFactorOptions {
  config: Config;
  database: Database;
  auth: Auth;
  callAuth: Bridge['callAuth'];
  refusal: Bridge['refusal'];
}

/**
 * Checks a second factor through better-auth's two-factor plugin: at sign-in (its challenge
 * cookie names the operator) and when a setup is confirmed (the session does). The plugin
 * limits wrong codes (5 per sign-in, then the password again; 10 in a row lock the account's
 * two-factor sign-in for 15 minutes); this adds the single use of app codes, and sends
 * backup codes as the digests they are stored as.
 */
export function createSecondFactorCheck({
  config,
  database,
  auth,
  callAuth,
  refusal,
}: SecondFactorOptions) {
  const consume = createRateLimiter(database);
  const challengeCookie = `${cookiePrefix(config)}.two_factor`;

  /**
   * The sign-in waiting for a code: whose password was right, and its signed cookie as the
   * browser holds it. Null without a live one.
   */
  async function challengeOf(request: FastifyRequest): Promise<Challenge | null> {
    const signed = request.headers.cookie
      ? parseCookies(request.headers.cookie)[challengeCookie]
      : undefined;
    const identifier = signed ? verifySessionCookie(signed, config.authSecret) : null;
    if (!signed || !identifier) return null;
    const context = await auth.$context;
    const found = await context.internalAdapter.findVerificationValue(identifier);
    if (!found || new Date(found.expiresAt).getTime() <= Date.now()) return null;
    return { userId: found.value, signed };
  }

  /** Seconds until the account's two-factor lock ends (better-auth's lockedUntil). */
  async function lockSecondsLeft(userId: string): Promise<number> {
    const until = await twoFactorLockedUntil(database, userId);
    return Math.max(1, Math.ceil((until - Date.now()) / 1000));
  }

  async function verify(
    request: FastifyRequest,
    reply: FastifyReply,
    { userId, signed }: Challenge,
    code: string,
  ): Promise<AuthAnswer> {
    const fromApp = isTotpCode(code);
    const given = fromApp ? normaliseCode(code) : backupCodeDigest(code);
    const usedKey = usedCodeKey(userId, given);
    // Claimed before it is checked, so that two uses at the same moment cannot both pass.
    const claim = fromApp ? await consume(usedKey, USED_CODE_RULE) : undefined;
    if (claim && !claim.allowed) {
      throw fieldRefusal(400, 'two-factor-code-used', 'code');
    }
    // Only the challenge goes to the plugin: given a session cookie too, it would check the
    // code against that session's account instead.
    const answer = await callAuth(
      request,
      reply,
      { code: given },
      {
        path: fromApp ? '/two-factor/verify-totp' : '/two-factor/verify-backup-code',
        cookie: `${challengeCookie}=${encodeURIComponent(signed)}`,
      },
    );
    if (answer.status === 200) return answer;
    if (claim) await refundRateLimit(database, usedKey, claim.windowStart);
    switch (authErrorCode(answer)) {
      case 'INVALID_CODE':
      case 'INVALID_BACKUP_CODE':
        throw fieldRefusal(400, 'two-factor-wrong-code', 'code');
      case 'INVALID_TWO_FACTOR_COOKIE':
      case 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE':
      case 'TOTP_NOT_ENABLED':
      case 'BACKUP_CODES_NOT_ENABLED':
        throw new HttpError(401, 'sign-in-again');
      case 'ACCOUNT_TEMPORARILY_LOCKED':
        reply.header('retry-after', String(await lockSecondsLeft(userId)));
        throw new HttpError(429, 'two-factor-locked');
      default:
        return refusal(answer);
    }
  }

  return { challengeOf, verify };
}
