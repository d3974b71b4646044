import type { Kysely, Migration } from 'kysely';

/**
 * Migration 0010: a deactivated operator (docs/decisions/0025-deactivating-operators.md) is a
 * row here, in a table of ours rather than a column of better-auth's user table, whose schema
 * is better-auth's to migrate. Reactivating deletes the row.
 */
export const operatorDeactivationsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operator_deactivations')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('user.id').onDelete('cascade'))
      .addColumn('deactivated_at', 'text', (c) => c.notNull())
      // Who deactivated them: an administrator's id (kept if that account goes).
      .addColumn('deactivated_by', 'text')
      .execute();
  },
};
