import type { Kysely, Transaction } from 'kysely';
import {
  type OperatorRole,
  type OperatorSummary,
  operatorRoleOf,
} from '../../shared/operator-schema.ts';
import type { DatabaseSchema } from '../db/schema.ts';

type WriteTransaction = Transaction<DatabaseSchema>;

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

function toOperator(row: { id: string; email: string; role: string | null }): OperatorSummary {
  return { id: row.id, email: row.email, role: operatorRoleOf(row.role) };
}

export async function listOperators(db: Kysely<DatabaseSchema>): Promise<OperatorSummary[]> {
  const rows = await db
    .selectFrom('user')
    .select(['id', 'email', 'role'])
    .orderBy('email')
    .execute();
  return rows.map(toOperator);
}

export type RoleChangeOutcome =
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
  await trx.updateTable('settings').set({ admin_claimed: 1 }).where('id', '=', 1).execute();
  const target = await trx
    .selectFrom('user')
    .select(['id', 'email', 'role'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!target) return { kind: 'not-found' };
  if (role === 'operator' && operatorRoleOf(target.role) === 'admin') {
    const admins = await trx
      .selectFrom('user')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    if (Number(admins.count) <= 1) return { kind: 'last-administrator' };
  }
  await trx.updateTable('user').set({ role }).where('id', '=', userId).execute();
  return { kind: 'changed', operator: toOperator({ ...target, role }) };
}
