import type { WriteTransaction } from '../db/database.ts';
import { RESET_PREFIX } from './reset-links.ts';

/** Only an operator's reset links among better-auth's verifications. */
function resetLinksOf(trx: WriteTransaction, userId: string) {
  return trx
    .deleteFrom('verification')
    .where('identifier', 'like', `${RESET_PREFIX}%`)
    .where('value', '=', userId);
}

/**
 * Deletes every reset link of an operator that is still waiting to be used, within a write
 * that does more (a deactivation, a password change or reset).
 */
export async function withdrawResetLinks(trx: WriteTransaction, userId: string): Promise<void> {
  await resetLinksOf(trx, userId).execute();
}

/**
 * Withdraws every reset link of the operator but the newest. Each issue runs it after its
 * link is stored, so of two issued at the same moment (two administrators, a double click)
 * one stays working, the same one whichever statement runs last.
 */
export async function keepOnlyNewestResetLink(
  trx: WriteTransaction,
  userId: string,
): Promise<void> {
  const newest = trx
    .selectFrom('verification')
    .select('id')
    .where('identifier', 'like', `${RESET_PREFIX}%`)
    .where('value', '=', userId)
    .orderBy('expiresAt', 'desc')
    .orderBy('id', 'desc')
    .limit(1);
  await resetLinksOf(trx, userId).where('id', 'not in', newest).execute();
}
