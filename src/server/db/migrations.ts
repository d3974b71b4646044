import {
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  SqliteAdapter,
  sql,
} from 'kysely';
import type { Database } from './database.ts';

/**
 * The app's own tables, after better-auth has created its own ("user", "session", …).
 * Append only: a migration that has run somewhere must never change.
 */
const migrations: Record<string, Migration> = {
  '0001_settings_and_rate_limits': {
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
  },
  '0002_clients': {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      // seq is a stable integer row id: SQLite's search index refers to rows by it.
      await db.schema
        .createTable('clients')
        .addColumn('seq', sqlite ? 'integer' : 'bigserial', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
        .addColumn('fname', 'text', (c) => c.notNull())
        .addColumn('lname', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('balance_paise', 'bigint', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      // One index per sort order, each ending in seq (ties in creation order) so that
      // paging is stable and no sort step is needed: the page is read straight off the index.
      // seq, not the 36-character id, keeps every entry and so every write small.
      const sortIndexes: Record<string, string[]> = {
        clients_owner_name: ['owner_id', 'lname', 'fname', 'seq'],
        clients_owner_fname: ['owner_id', 'fname', 'seq'],
        clients_owner_email: ['owner_id', 'email', 'seq'],
        clients_owner_phone: ['owner_id', 'phone', 'seq'],
        clients_owner_balance: ['owner_id', 'balance_paise', 'seq'],
        clients_owner_created: ['owner_id', 'created_at', 'seq'],
      };
      for (const [name, columns] of Object.entries(sortIndexes)) {
        await db.schema.createIndex(name).on('clients').columns(columns).execute();
      }
      if (sqlite) await createSqliteSearchIndex(db);
      await db.schema
        .createTable('owner_totals')
        .addColumn('owner_id', 'text', (c) =>
          c.primaryKey().references('user.id').onDelete('cascade'),
        )
        .addColumn('client_count', 'bigint', (c) => c.notNull())
        .addColumn('total_paise', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
};

/**
 * A trigram full-text index over the four searchable fields, kept in step by triggers:
 * any substring of 3+ characters is found through the index instead of a scan of every
 * client (docs/decisions/0006-search-index.md).
 */
async function createSqliteSearchIndex(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE clients_search USING fts5(
    fname, lname, email, phone, content='clients', content_rowid='seq', tokenize='trigram')`.execute(
    db,
  );
  await sql`CREATE TRIGGER clients_search_insert AFTER INSERT ON clients BEGIN
    INSERT INTO clients_search (rowid, fname, lname, email, phone)
    VALUES (new.seq, new.fname, new.lname, new.email, new.phone);
  END`.execute(db);
  await sql`CREATE TRIGGER clients_search_delete AFTER DELETE ON clients BEGIN
    INSERT INTO clients_search (clients_search, rowid, fname, lname, email, phone)
    VALUES ('delete', old.seq, old.fname, old.lname, old.email, old.phone);
  END`.execute(db);
  await sql`CREATE TRIGGER clients_search_update AFTER UPDATE OF fname, lname, email, phone ON clients BEGIN
    INSERT INTO clients_search (clients_search, rowid, fname, lname, email, phone)
    VALUES ('delete', old.seq, old.fname, old.lname, old.email, old.phone);
    INSERT INTO clients_search (rowid, fname, lname, email, phone)
    VALUES (new.seq, new.fname, new.lname, new.email, new.phone);
  END`.execute(db);
}

class InCodeMigrations implements MigrationProvider {
  async getMigrations() {
    return migrations;
  }
}

export async function runAppMigrations(database: Database): Promise<void> {
  const migrator = new Migrator({
    db: database.db,
    provider: new InCodeMigrations(),
    migrationTableName: 'app_migrations',
    migrationLockTableName: 'app_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}
