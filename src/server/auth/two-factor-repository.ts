import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TwoFactorStatus } from '../../shared/two-factor-schema.ts';
import { dialectOf, type WriteTransaction } from '../db/database.ts';
import type { DatabaseReader } from '../db/reader.ts';
import type { DatabaseSchema } from '../db/schema.ts';

// better-auth's two-factor rows as the panel reads and writes them itself
// (docs/decisions/0026-two-factor-sign-in.md); the plugin's own writes stay the plugin's.

/**
 * A boolean as better-auth stores it in its own columns: 0 or 1 on SQLite, which has no
 * boolean type, a real boolean on PostgreSQL.
 */
function authBoolean(handle: Kysely<DatabaseSchema>, value: boolean): number | boolean {
  return dialectOf(handle) === 'sqlite' ? Number(value) : value;
}

/** The operator's two-factor sign-in: on once a code confirmed the setup. */
export async function twoFactorStatusOf(
  reader: DatabaseReader,
  userId: string,
): Promise<TwoFactorStatus> {
  const row = await reader.db
    .selectFrom('user')
    .leftJoin('twoFactor', 'twoFactor.userId', 'user.id')
    .select(['user.twoFactorEnabled', 'twoFactor.backupCodes'])
    .where('user.id', '=', userId)
    .executeTakeFirst();
  // The plugin sets the user's flag only once a code confirmed the setup.
  const enabled = Boolean(row?.twoFactorEnabled);
  const codes = enabled && row?.backupCodes ? (JSON.parse(row.backupCodes) as unknown[]) : [];
  return { enabled, backupCodesLeft: codes.length };
}

/** The operator's setup, confirmed or not: its row and its secret (encrypted). */
interface StoredSetup {
  id: string;
  secret: string;
}

export async function twoFactorSetupOf(
  reader: DatabaseReader,
  userId: string,
): Promise<StoredSetup | undefined> {
  return reader.db
    .selectFrom('twoFactor')
    .select(['id', 'secret'])
    .where('userId', '=', userId)
    .executeTakeFirst();
}

/**
 * A new setup's secret (encrypted) and backup codes (digests, as JSON), replacing an
 * unconfirmed setup but never a confirmed one (false then). One upsert on the unique userId
 * index, so that two setups at once leave one row.
 */
export async function storeTwoFactorSetup(
  trx: WriteTransaction,
  userId: string,
  setup: { secret: string; backupCodes: string },
): Promise<boolean> {
  const unconfirmed = authBoolean(trx, false);
  const stored = await trx
    .insertInto('twoFactor')
    .values({
      id: randomUUID(),
      userId,
      secret: setup.secret,
      backupCodes: setup.backupCodes,
      verified: unconfirmed,
      failedVerificationCount: 0,
      lockedUntil: null,
    })
    .onConflict((conflict) =>
      conflict
        .column('userId')
        .doUpdateSet({ secret: setup.secret, backupCodes: setup.backupCodes })
        .where('twoFactor.verified', '=', unconfirmed),
    )
    .returning('id')
    .executeTakeFirst();
  return stored !== undefined;
}

/**
 * Turns two-factor sign-in on: only the setup that was checked, still unconfirmed, so that a
 * disable or a new setup in between leaves nothing to turn on (and the user's flag
 * untouched; false then).
 */
export async function confirmTwoFactorSetup(
  trx: WriteTransaction,
  userId: string,
  setup: StoredSetup,
): Promise<boolean> {
  const result = await trx
    .updateTable('twoFactor')
    .set({ verified: authBoolean(trx, true) })
    .where('id', '=', setup.id)
    .where('secret', '=', setup.secret)
    .where('verified', '=', authBoolean(trx, false))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await trx
    .updateTable('user')
    .set({ twoFactorEnabled: authBoolean(trx, true) })
    .where('id', '=', userId)
    .execute();
  return true;
}

/** New backup codes (digests, as JSON) for a confirmed setup; false when it is not on. */
export async function replaceBackupCodes(
  trx: WriteTransaction,
  userId: string,
  backupCodes: string,
): Promise<boolean> {
  const result = await trx
    .updateTable('twoFactor')
    .set({ backupCodes })
    .where('userId', '=', userId)
    .where('verified', '=', authBoolean(trx, true))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Turns two-factor sign-in off: the secret and the backup codes go. */
export async function removeTwoFactor(trx: WriteTransaction, userId: string): Promise<boolean> {
  const removed = await trx.deleteFrom('twoFactor').where('userId', '=', userId).executeTakeFirst();
  const updated = await trx
    .updateTable('user')
    .set({ twoFactorEnabled: authBoolean(trx, false) })
    .where('id', '=', userId)
    .where('twoFactorEnabled', '=', authBoolean(trx, true))
    .executeTakeFirst();
  return Number(removed.numDeletedRows) > 0 || Number(updated.numUpdatedRows) > 0;
}

/** When the plugin's lock of the account's two-factor sign-in ends (ms); 0 when none. */
export async function twoFactorLockedUntil(
  reader: DatabaseReader,
  userId: string,
): Promise<number> {
  const row = await reader.db
    .selectFrom('twoFactor')
    .select('lockedUntil')
    .where('userId', '=', userId)
    .executeTakeFirst();
  return row?.lockedUntil ? new Date(row.lockedUntil).getTime() : 0;
}

/** Whether the administrator requires two-factor sign-in of every operator. */
export async function requiresTwoFactor(reader: DatabaseReader): Promise<boolean> {
  const row = await reader.db
    .selectFrom('settings')
    .select('require_two_factor')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(row?.require_two_factor ?? 0) !== 0;
}

export async function saveTwoFactorRequirement(
  trx: WriteTransaction,
  required: boolean,
): Promise<void> {
  await trx
    .updateTable('settings')
    .set({ require_two_factor: required ? 1 : 0, updated_at: new Date().toISOString() })
    .where('id', '=', 1)
    .execute();
}

/**
 * A session answer, marked when the operator must turn on two-factor sign-in before anything
 * else (the administrator requires it and theirs is off).
 */
export async function withTwoFactorSetupFlag<T extends { user: { id: string } }>(
  reader: DatabaseReader,
  answer: T,
): Promise<T & { twoFactorSetupRequired?: true }> {
  if (!(await requiresTwoFactor(reader))) return answer;
  if ((await twoFactorStatusOf(reader, answer.user.id)).enabled) return answer;
  return { ...answer, twoFactorSetupRequired: true };
}
