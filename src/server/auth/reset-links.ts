import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

/**
 * How long a reset link works: time enough for an administrator to hand it over and for the
 * operator to use it, and not a standing way into the account.
 */
export const RESET_LINK_LIFETIME_SECONDS = 60 * 60;

/** better-auth's verification identifier of a reset token: this prefix and the token. */
export const RESET_PREFIX = 'reset-password:';

/**
 * How better-auth stores verification identifiers (its `verification.storeIdentifier`): as a
 * SHA-256 digest, so that a copy of the database holds no working reset link. The reset
 * prefix is kept in front of the digest, so that the links of one operator can be found and
 * withdrawn. A token has 143 random bits (better-auth: 24 characters of 62, from
 * crypto.getRandomValues), so an unsalted fast hash is enough: nothing can be guessed.
 */
export async function hashVerificationIdentifier(identifier: string): Promise<string> {
  const digest = createHash('sha256').update(identifier).digest('base64url');
  return identifier.startsWith(RESET_PREFIX) ? `${RESET_PREFIX}${digest}` : digest;
}

/**
 * The panel sends no e-mail: better-auth's sendResetPassword hands the token to the call
 * that asked for it (issueResetLink, through receiveResetToken), through this store. A reset
 * asked for in any other way (no such call is routed;
 * docs/decisions/0003-auth-endpoints-allowlist.md) fails.
 */
const handOver = new AsyncLocalStorage<{ token?: string }>();

export async function handOverResetToken({ token }: { token: string }): Promise<void> {
  const holder = handOver.getStore();
  if (!holder) throw new Error('a password reset was asked for outside issueResetLink');
  holder.token = token;
}

/** Runs `ask` (better-auth's requestPasswordReset) and answers the token it handed over. */
export async function receiveResetToken(ask: () => Promise<unknown>): Promise<string | undefined> {
  const holder: { token?: string } = {};
  await handOver.run(holder, ask);
  return holder.token;
}
