import { type Kysely, type Migration, sql } from 'kysely';

/** Migration 0001: the panel's one settings row, and the auth rate limiter's counters. */
export const settingsAndRateLimitsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('settings')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('allow_registrations', 'integer', (c) => c.notNull())
      .addColumn('disable_balance_on_add', 'integer', (c) => c.notNull())
      .addColumn('disable_balance_on_edit', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await sql`INSERT INTO settings (id, allow_registrations, disable_balance_on_add, disable_balance_on_edit, updated_at)
    VALUES (1, 1, 1, 1, ${new Date().toISOString()})`.execute(db);
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      .execute();
  },
};
