import { type Language, languageOrDefault } from '../../shared/languages.ts';
import type { OperatorSummary } from '../../shared/operator-schema.ts';
import { dialectOf, storedDate, type WriteTransaction } from '../db/database.ts';
import { type DatabaseReader, handleOf, type ReadSource } from '../db/reader.ts';
import { toOperator } from '../operators/operators-repository.ts';
import { withdrawResetLinks } from './reset-links-repository.ts';

/** better-auth's provider id of an e-mail and password account. */
const CREDENTIAL_PROVIDER = 'credential';

/** The stored hash of an operator's password; null if the account has none. */
export async function passwordHashOf(
  reader: DatabaseReader,
  userId: string,
): Promise<string | null> {
  const row = await reader.db
    .selectFrom('account')
    .select('password')
    .where('userId', '=', userId)
    .where('providerId', '=', CREDENTIAL_PROVIDER)
    .executeTakeFirst();
  return row?.password ?? null;
}

function storedNow(trx: WriteTransaction): string | Date {
  return storedDate(dialectOf(trx), Date.now());
}

/**
 * Stores the new password's hash and withdraws the operator's reset links (one handed out
 * for a forgotten password is no longer wanted). The caller ends the operator's other
 * sessions in the same write: there is no moment where the new password works and an old
 * session still does.
 */
export async function replacePassword(
  trx: WriteTransaction,
  change: { userId: string; hash: string },
): Promise<void> {
  const updated = await trx
    .updateTable('account')
    .set({ password: change.hash, updatedAt: storedNow(trx) })
    .where('userId', '=', change.userId)
    .where('providerId', '=', CREDENTIAL_PROVIDER)
    .executeTakeFirst();
  if (updated.numUpdatedRows !== 1n) {
    throw new Error(`operator ${change.userId} has no password account`);
  }
  await withdrawResetLinks(trx, change.userId);
}

export type EmailChange = { kind: 'changed'; operator: OperatorSummary } | { kind: 'taken' };

/**
 * A unique index refused the write: on PostgreSQL two changes to one address at once can
 * both pass changeEmail's check, and the second to commit fails here instead.
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Gives the operator a new e-mail address (already normalised), unless another account has
 * it. A write that races another for the same address can still fail with a unique
 * violation (isUniqueViolation): that, too, means it is taken.
 */
export async function changeEmail(
  trx: WriteTransaction,
  change: { userId: string; email: string },
): Promise<EmailChange> {
  const other = await trx
    .selectFrom('user')
    .select('id')
    .where('email', '=', change.email)
    .where('id', '<>', change.userId)
    .executeTakeFirst();
  if (other) return { kind: 'taken' };
  const row = await trx
    .updateTable('user')
    .set({ email: change.email, updatedAt: storedNow(trx) })
    .where('id', '=', change.userId)
    .returning(['id', 'email', 'role'])
    .executeTakeFirstOrThrow();
  return { kind: 'changed', operator: toOperator(row) };
}

/** Whether an account has this e-mail address (already normalised). */
export async function accountExists(source: ReadSource, email: string): Promise<boolean> {
  const row = await handleOf(source)
    .selectFrom('user')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirst();
  return row !== undefined;
}

/** The language the operator's account keeps for their pages. */
export async function accountLanguageOf(source: ReadSource, userId: string): Promise<Language> {
  const row = await handleOf(source)
    .selectFrom('user')
    .select('language')
    .where('id', '=', userId)
    .executeTakeFirst();
  return languageOrDefault(row?.language);
}

export async function saveAccountLanguage(
  trx: WriteTransaction,
  userId: string,
  language: Language,
): Promise<void> {
  await trx.updateTable('user').set({ language }).where('id', '=', userId).execute();
}
