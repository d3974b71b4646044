import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * Migration 0017: issue 21's speed targets (docs/decisions/0040-ageing-kept-per-version.md).
 *
 * - `owner_totals.dues_version`: raised by every write that changes an operator's sums by due
 *   date (`owner_dues`), in that write's transaction. Each app instance keeps the last ageing
 *   it answered per operator, day and version, and reads only the version while they hold.
 * - SQLite: `dues`, `owner_dues` and `collect_done` become WITHOUT ROWID tables (same columns,
 *   same keys). Each is only ever found by its primary key, so the key's b-tree holds the rows
 *   themselves: a payment that settles reads a client's unpaid amounts from one page and
 *   writes one page for them, not a table page and a key-index page each, and the ageing sums
 *   by range of the key without a second lookup per row. PostgreSQL has no such choice.
 *
 * The tables are rebuilt in one transaction (copy, drop, rename); nothing references them, so
 * foreign keys stay on. Self-contained (docs/decisions/0032-frozen-migrations.md).
 */

async function rebuildWithoutRowid(
  db: Kysely<unknown>,
  table: string,
  columns: string,
  create: (name: string) => { execute(): Promise<void> },
): Promise<void> {
  const rebuilt = `${table}_0017`;
  await create(rebuilt).execute();
  await sql
    .raw(`INSERT INTO "${rebuilt}" (${columns}) SELECT ${columns} FROM "${table}"`)
    .execute(db);
  await sql.raw(`DROP TABLE "${table}"`).execute(db);
  await sql.raw(`ALTER TABLE "${rebuilt}" RENAME TO "${table}"`).execute(db);
}

export const ageingVersionAndKeyedDuesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('owner_totals')
      .addColumn('dues_version', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;

    await db.transaction().execute(async (trx) => {
      await rebuildWithoutRowid(
        trx,
        'dues',
        'client_id, due_on, owner_id, amount_paise, prev_due_on',
        (name) =>
          trx.schema
            .createTable(name)
            .addColumn('client_id', 'text', (c) => c.notNull())
            .addColumn('due_on', 'text', (c) => c.notNull())
            .addColumn('owner_id', 'text', (c) =>
              c.notNull().references('user.id').onDelete('cascade'),
            )
            .addColumn('amount_paise', 'bigint', (c) => c.notNull().check(sql`amount_paise > 0`))
            .addColumn('prev_due_on', 'text')
            .addPrimaryKeyConstraint('dues_pkey', ['client_id', 'due_on'])
            .modifyEnd(sql`WITHOUT ROWID`),
      );
      await rebuildWithoutRowid(
        trx,
        'owner_dues',
        'owner_id, due_on, prev_due_on, amount_paise, clients',
        (name) =>
          trx.schema
            .createTable(name)
            .addColumn('owner_id', 'text', (c) =>
              c.notNull().references('user.id').onDelete('cascade'),
            )
            .addColumn('due_on', 'text', (c) => c.notNull())
            .addColumn('prev_due_on', 'text', (c) => c.notNull())
            .addColumn('amount_paise', 'bigint', (c) => c.notNull())
            .addColumn('clients', 'bigint', (c) => c.notNull())
            .addPrimaryKeyConstraint('owner_dues_pkey', ['owner_id', 'due_on', 'prev_due_on'])
            .modifyEnd(sql`WITHOUT ROWID`),
      );
      await rebuildWithoutRowid(
        trx,
        'collect_done',
        'owner_id, on_date, client_id, action, done_at',
        (name) =>
          trx.schema
            .createTable(name)
            .addColumn('owner_id', 'text', (c) =>
              c.notNull().references('user.id').onDelete('cascade'),
            )
            .addColumn('on_date', 'text', (c) => c.notNull())
            .addColumn('client_id', 'text', (c) => c.notNull())
            .addColumn('action', 'text', (c) =>
              c.notNull().check(sql`action IN ('reminded', 'paid', 'promised', 'skipped')`),
            )
            .addColumn('done_at', 'text', (c) => c.notNull())
            .addPrimaryKeyConstraint('collect_done_pkey', ['owner_id', 'on_date', 'client_id'])
            .modifyEnd(sql`WITHOUT ROWID`),
      );
    });
  },
};
