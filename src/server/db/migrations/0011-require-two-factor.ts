import type { Kysely, Migration } from 'kysely';

/**
 * Migration 0011: the administrator's two-factor policy (docs/decisions/0026-two-factor-sign-in.md);
 * off, as a new panel must be usable with a password alone.
 */
export const requireTwoFactorMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('settings')
      .addColumn('require_two_factor', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
