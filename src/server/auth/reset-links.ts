import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { ResetLink } from '../../shared/password-reset-schema.ts';
import { paths } from '../../shared/paths.ts';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Auth } from './auth.ts';

/**
 * How long a reset link works: time enough for an administrator to hand it over and for the
 * operator to use it, and not a standing way into the account.
 */
export const RESET_LINK_LIFETIME_SECONDS = 60 * 60;

/** better-auth's verification identifier of a reset token: this prefix and the token. */
const RESET_PREFIX = 'reset-password:';

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
 * that asked for it (issueResetLink), through this store. A reset asked for in any other
 * way (no such call is routed; docs/decisions/0003-auth-endpoints-allowlist.md) fails.
 */
const handOver = new AsyncLocalStorage<{ token?: string }>();

export async function handOverResetToken({ token }: { token: string }): Promise<void> {
  const holder = handOver.getStore();
  if (!holder) throw new Error('a password reset was asked for outside issueResetLink');
  holder.token = token;
}

/**
 * The reset page's address. The token travels in the fragment, which browsers never send:
 * it stays out of the server's and any proxy's access logs and out of Referer headers
 * (ASVS 5.0 14.2.1); the page posts it in a request body.
 */
function resetLinkUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${paths.resetPassword}#token=${encodeURIComponent(token)}`;
}

/**
 * Deletes every reset link of an operator that is still waiting to be used, within a write
 * that does more (a deactivation, a password change or reset).
 */
export async function withdrawResetLinksWithin(
  trx: Transaction<DatabaseSchema>,
  userId: string,
): Promise<void> {
  await trx
    .deleteFrom('verification')
    .where('identifier', 'like', `${RESET_PREFIX}%`)
    .where('value', '=', userId)
    .execute();
}

/**
 * Withdraws every reset link of the operator but the newest. Each issue runs it after its
 * link is stored, so of two issued at the same moment (two administrators, a double click)
 * one stays working, the same one whichever statement runs last.
 */
async function keepOnlyNewestResetLink(database: Database, userId: string): Promise<void> {
  await database.write(async (trx) => {
    const newest = trx
      .selectFrom('verification')
      .select('id')
      .where('identifier', 'like', `${RESET_PREFIX}%`)
      .where('value', '=', userId)
      .orderBy('expiresAt', 'desc')
      .orderBy('id', 'desc')
      .limit(1);
    await trx
      .deleteFrom('verification')
      .where('identifier', 'like', `${RESET_PREFIX}%`)
      .where('value', '=', userId)
      .where('id', 'not in', newest)
      .execute();
  });
}

/**
 * A new one-time reset link for this operator, to be handed over by whoever asked (an
 * administrator, or the reset-link command on the server). Earlier links of the operator
 * stop working: only the newest one is out there.
 */
export async function issueResetLink(
  { auth, database, publicUrl }: { auth: Auth; database: Database; publicUrl: string },
  operator: { id: string; email: string },
): Promise<ResetLink> {
  // Taken before better-auth sets its own, so the link never outlives what it says.
  const expiresAt = new Date(Date.now() + RESET_LINK_LIFETIME_SECONDS * 1000).toISOString();
  const holder: { token?: string } = {};
  await handOver.run(holder, () =>
    auth.api.requestPasswordReset({ body: { email: operator.email } }),
  );
  if (!holder.token) throw new Error(`no reset token was issued for operator ${operator.id}`);
  await keepOnlyNewestResetLink(database, operator.id);
  return { url: resetLinkUrl(publicUrl, holder.token), expiresAt };
}

export interface ResetLinkHolder {
  userId: string;
  email: string;
  expiresAt: string;
}

/** Whose reset link this token is, while it is unused and unexpired; null otherwise. */
export async function findResetLink(auth: Auth, token: string): Promise<ResetLinkHolder | null> {
  // better-auth's tokens are letters and digits; anything else (a NUL, which PostgreSQL
  // cannot even compare) is no token, and is not looked up.
  if (!/^[A-Za-z0-9]{1,128}$/.test(token)) return null;
  const { internalAdapter } = await auth.$context;
  const found = await internalAdapter.findVerificationValue(`${RESET_PREFIX}${token}`);
  if (!found) return null;
  const expiresAt = new Date(found.expiresAt);
  if (!(expiresAt.getTime() > Date.now())) return null;
  const user = await internalAdapter.findUserById(found.value);
  if (!user) return null;
  return { userId: user.id, email: user.email, expiresAt: expiresAt.toISOString() };
}
