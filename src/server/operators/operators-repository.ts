import type { Kysely } from 'kysely';
import type { OperatorListItem } from '../../shared/operator-list-schema.ts';
import {
  type OperatorRole,
  type OperatorSummary,
  operatorRoleOf,
} from '../../shared/operator-schema.ts';
import { isLookupId } from '../../shared/text.ts';
import type { WriteTransaction } from '../db/database.ts';
import { type DatabaseReader, handleOf, type ReadSource } from '../db/reader.ts';
import type { DatabaseSchema } from '../db/schema.ts';

/**
 * Makes this new account the panel's administrator if no account ever was: one conditional
 * update of the settings row, so of two first sign-ups at once exactly one wins (PostgreSQL
 * re-checks the condition after waiting for the row lock; SQLite writes one at a time).
 */
export async function claimFirstAdministrator(
  trx: WriteTransaction,
  userId: string,
): Promise<boolean> {
  const claimed = await trx
    .updateTable('settings')
    .set({ admin_claimed: 1 })
    .where('id', '=', 1)
    .where('admin_claimed', '=', 0)
    .executeTakeFirst();
  if (claimed.numUpdatedRows !== 1n) return false;
  await trx.updateTable('user').set({ role: 'admin' }).where('id', '=', userId).execute();
  return true;
}

/**
 * A panel with accounts but no administrator (made before roles existed, or a crash between
 * a first sign-up and its claim) gets one: its oldest account. Run at every start.
 */
export async function ensureAdministrator(trx: WriteTransaction): Promise<void> {
  const admin = await trx
    .selectFrom('user')
    .select('id')
    .where('role', '=', 'admin')
    .limit(1)
    .executeTakeFirst();
  if (admin) return;
  const oldest = await trx
    .selectFrom('user')
    .select('id')
    .orderBy('createdAt')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!oldest) return;
  await trx.updateTable('user').set({ role: 'admin' }).where('id', '=', oldest.id).execute();
  await trx.updateTable('settings').set({ admin_claimed: 1 }).where('id', '=', 1).execute();
}

export function toOperator(row: {
  id: string;
  email: string;
  role: string | null;
}): OperatorSummary {
  return { id: row.id, email: row.email, role: operatorRoleOf(row.role) };
}

function toListItem(row: {
  id: string;
  email: string;
  role: string | null;
  deactivatedAt: string | null;
  twoFactorEnabled: number | boolean | null;
}): OperatorListItem {
  return {
    ...toOperator(row),
    deactivatedAt: row.deactivatedAt,
    twoFactorEnabled: Boolean(row.twoFactorEnabled),
  };
}

/** Operators with whether, and since when, they are deactivated. */
function operatorsWithState(db: Kysely<DatabaseSchema>) {
  return db
    .selectFrom('user')
    .leftJoin('operator_deactivations as d', 'd.user_id', 'user.id')
    .select([
      'user.id',
      'user.email',
      'user.role',
      'user.twoFactorEnabled',
      'd.deactivated_at as deactivatedAt',
    ]);
}

export async function listOperators(reader: DatabaseReader): Promise<OperatorListItem[]> {
  const rows = await operatorsWithState(reader.db).orderBy('user.email').execute();
  return rows.map(toListItem);
}

export async function findOperator(
  reader: DatabaseReader,
  id: string,
): Promise<OperatorSummary | null> {
  if (!isLookupId(id)) return null;
  const row = await reader.db
    .selectFrom('user')
    .select(['id', 'email', 'role'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toOperator(row) : null;
}

/** E-mail addresses are stored lower-cased (sign-up lower-cases them). */
export async function findOperatorByEmail(
  reader: DatabaseReader,
  email: string,
): Promise<OperatorSummary | null> {
  const row = await reader.db
    .selectFrom('user')
    .select(['id', 'email', 'role'])
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  return row ? toOperator(row) : null;
}

type RoleChangeOutcome =
  | { kind: 'changed'; operator: OperatorSummary }
  | { kind: 'not-found' }
  | { kind: 'last-administrator' };

export async function changeRole(
  trx: WriteTransaction,
  userId: string,
  role: OperatorRole,
): Promise<RoleChangeOutcome> {
  // Role changes queue on the settings row's lock, so two administrators demoting each other
  // at once on PostgreSQL cannot both pass the "another administrator remains" check.
  if (!isLookupId(userId)) return { kind: 'not-found' };
  await trx.updateTable('settings').set({ admin_claimed: 1 }).where('id', '=', 1).execute();
  const target = await trx
    .selectFrom('user')
    .select(['id', 'email', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!target) return { kind: 'not-found' };
  // A deactivated administrator cannot act: only active ones count.
  if (
    role === 'operator' &&
    operatorRoleOf(target.role) === 'admin' &&
    !(await isDeactivated(trx, userId)) &&
    (await activeAdministratorCount(trx)) <= 1
  ) {
    return { kind: 'last-administrator' };
  }
  await trx.updateTable('user').set({ role }).where('id', '=', userId).execute();
  return { kind: 'changed', operator: toOperator({ ...target, role }) };
}

/** Administrators who may sign in. */
async function activeAdministratorCount(trx: WriteTransaction): Promise<number> {
  const admins = await trx
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('role', '=', 'admin')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('operator_deactivations as d')
            .select('d.user_id')
            .whereRef('d.user_id', '=', 'user.id'),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(admins.count);
}

/** Whether this operator is deactivated: one primary-key lookup. */
export async function isDeactivated(source: ReadSource, userId: string): Promise<boolean> {
  const row = await handleOf(source)
    .selectFrom('operator_deactivations')
    .select('user_id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

type DeactivationOutcome =
  | { kind: 'deactivated'; operator: OperatorListItem }
  | { kind: 'not-found' }
  | { kind: 'last-administrator' };

/**
 * Marks an operator deactivated (once: deactivating again keeps the first date). Only the
 * row: the caller ends their sessions and withdraws their reset links in the same write.
 * Queues on the settings row's lock like role changes, so that two administrators
 * deactivating each other at once cannot both pass the "another administrator remains" check.
 */
export async function deactivateOperator(
  trx: WriteTransaction,
  userId: string,
  by: { id: string; at: Date },
): Promise<DeactivationOutcome> {
  if (!isLookupId(userId)) return { kind: 'not-found' };
  await trx.updateTable('settings').set({ admin_claimed: 1 }).where('id', '=', 1).execute();
  const target = await operatorsWithState(trx).where('user.id', '=', userId).executeTakeFirst();
  if (!target) return { kind: 'not-found' };
  if (target.deactivatedAt !== null) return { kind: 'deactivated', operator: toListItem(target) };
  if (operatorRoleOf(target.role) === 'admin' && (await activeAdministratorCount(trx)) <= 1) {
    return { kind: 'last-administrator' };
  }
  const deactivatedAt = by.at.toISOString();
  await trx
    .insertInto('operator_deactivations')
    .values({ user_id: userId, deactivated_at: deactivatedAt, deactivated_by: by.id })
    .execute();
  return { kind: 'deactivated', operator: toListItem({ ...target, deactivatedAt }) };
}

/** Lets a deactivated operator sign in again, with their old password; null: no such operator. */
export async function reactivateOperator(
  trx: WriteTransaction,
  userId: string,
): Promise<OperatorListItem | null> {
  if (!isLookupId(userId)) return null;
  const target = await operatorsWithState(trx).where('user.id', '=', userId).executeTakeFirst();
  if (!target) return null;
  await trx.deleteFrom('operator_deactivations').where('user_id', '=', userId).execute();
  return toListItem({ ...target, deactivatedAt: null });
}

/** The operator as the administrator's list shows them; null: no such operator. */
export async function findListedOperator(
  reader: DatabaseReader,
  userId: string,
): Promise<OperatorListItem | null> {
  if (!isLookupId(userId)) return null;
  const row = await operatorsWithState(reader.db).where('user.id', '=', userId).executeTakeFirst();
  return row ? toListItem(row) : null;
}
