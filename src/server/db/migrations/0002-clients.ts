import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/** Migration 0002: clients, their sort indexes, the first search index, the running totals. */
export const clientsMigration: Migration = {
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
    if (sqlite) await createFirstSqliteSearchIndex(db);
    await db.schema
      .createTable('owner_totals')
      .addColumn('owner_id', 'text', (c) =>
        c.primaryKey().references('user.id').onDelete('cascade'),
      )
      .addColumn('client_count', 'bigint', (c) => c.notNull())
      .addColumn('total_paise', 'bigint', (c) => c.notNull())
      .execute();
  },
};

/** The first search index: four columns, folded by SQLite itself. 0003 replaces it. */
async function createFirstSqliteSearchIndex(db: Kysely<unknown>): Promise<void> {
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
