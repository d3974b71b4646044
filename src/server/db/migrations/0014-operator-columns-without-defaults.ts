import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * Migration 0014: one schema for every panel. better-auth gives `role` and `twoFactorEnabled` a
 * default when it adds them to an existing `user` table, and none when it creates the table, so
 * panels made before those columns differed from new ones. Nothing uses the defaults (better-auth
 * writes both columns on every insert): they are dropped.
 *
 * SQLite cannot drop a default in place: the table is rebuilt (SQLite's own procedure for a
 * change ALTER TABLE cannot make), with foreign keys off so that dropping the old table takes no
 * session, account or client with it. Migrations on SQLite run outside a transaction, so the
 * pragma takes effect; the rebuild itself is one transaction.
 */

const ADDED_DEFAULTS = [
  /("twoFactorEnabled" integer) default 0/i,
  /("role" text) default 'operator'/i,
];

async function rebuildSqliteUserTable(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'user'`.execute(db);
  const created = rows[0]?.sql;
  if (!created || !ADDED_DEFAULTS.some((pattern) => pattern.test(created))) return;
  const withoutDefaults = ADDED_DEFAULTS.reduce(
    (text, pattern) => text.replace(pattern, '$1'),
    created,
  ).replace(/^CREATE TABLE "user"/, 'CREATE TABLE "user_0014"');
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(withoutDefaults).execute(trx);
      await sql`INSERT INTO "user_0014" SELECT * FROM "user"`.execute(trx);
      await sql`DROP TABLE "user"`.execute(trx);
      await sql`ALTER TABLE "user_0014" RENAME TO "user"`.execute(trx);
      const broken = await sql`PRAGMA foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) throw new Error('rebuilding "user" broke a foreign key');
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

export const operatorColumnsWithoutDefaultsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    if (db.getExecutor().adapter instanceof SqliteAdapter) {
      await rebuildSqliteUserTable(db);
      return;
    }
    await sql`ALTER TABLE "user"
      ALTER COLUMN "role" DROP DEFAULT,
      ALTER COLUMN "twoFactorEnabled" DROP DEFAULT`.execute(db);
  },
};
