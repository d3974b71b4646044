import { type Kysely, type Migration, sql } from 'kysely';

/** Migration 0005: the running totals split by sign, so a balance filter is counted without a scan. */
export const owingAndCreditTotalsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of ['owing_count', 'owing_paise', 'credit_count', 'credit_paise']) {
      await db.schema
        .alterTable('owner_totals')
        .addColumn(column, 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
    }
    await sql`UPDATE owner_totals SET
    owing_count = (SELECT COUNT(*) FROM clients c
      WHERE c.owner_id = owner_totals.owner_id AND c.balance_paise > 0),
    owing_paise = (SELECT COALESCE(SUM(c.balance_paise), 0) FROM clients c
      WHERE c.owner_id = owner_totals.owner_id AND c.balance_paise > 0),
    credit_count = (SELECT COUNT(*) FROM clients c
      WHERE c.owner_id = owner_totals.owner_id AND c.balance_paise < 0),
    credit_paise = (SELECT COALESCE(SUM(c.balance_paise), 0) FROM clients c
      WHERE c.owner_id = owner_totals.owner_id AND c.balance_paise < 0)`.execute(db);
  },
};
