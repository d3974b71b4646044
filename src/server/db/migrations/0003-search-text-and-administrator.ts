import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * Migration 0003: the administrator's claim, and search over one folded column on both
 * dialects (docs/decisions/0009-folded-search-text.md), backfilled with this file's own copy of
 * the folding as it was written.
 */
export const searchTextAndAdministratorMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
    await db.schema
      .alterTable('settings')
      .addColumn('admin_claimed', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`UPDATE settings SET admin_claimed = 1 WHERE EXISTS (SELECT 1 FROM "user")`.execute(
      db,
    );
    await db.schema
      .alterTable('clients')
      .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await backfillSearchText(db);
    if (sqlite) {
      for (const trigger of ['insert', 'delete', 'update']) {
        await sql.raw(`DROP TRIGGER clients_search_${trigger}`).execute(db);
      }
      await sql`DROP TABLE clients_search`.execute(db);
      await createSqliteSearchIndex(db);
    }
  },
};

const BATCH = 1000;

interface ClientRow {
  seq: number;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  search_text: string;
}

/** The four fields, each in NFC and lower case, one per line (no match spans two). */
function searchTextOf(row: Omit<ClientRow, 'seq' | 'search_text'>): string {
  return [row.fname, row.lname, row.email, row.phone]
    .map((text) => text.normalize('NFC').toLowerCase())
    .join('\n');
}

async function backfillSearchText(db: Kysely<unknown>): Promise<void> {
  const clients = db as unknown as Kysely<{ clients: ClientRow }>;
  for (let after = 0; ; ) {
    const rows = await clients
      .selectFrom('clients')
      .select(['seq', 'fname', 'lname', 'email', 'phone'])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      await clients
        .updateTable('clients')
        .set({ search_text: searchTextOf(row) })
        .where('seq', '=', row.seq)
        .execute();
    }
    after = Number(rows[rows.length - 1]?.seq);
  }
}

/**
 * A trigram full-text index over the folded search text, kept in step by triggers: any
 * substring of 3+ characters is found through the index instead of a scan of every client
 * (docs/decisions/0006-search-index.md). The text is folded before it is stored, so the
 * index compares it as is (case_sensitive 1).
 */
async function createSqliteSearchIndex(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE VIRTUAL TABLE clients_search USING fts5(
    search_text, content='clients', content_rowid='seq',
    tokenize='trigram case_sensitive 1')`.execute(db);
  await sql`CREATE TRIGGER clients_search_insert AFTER INSERT ON clients BEGIN
    INSERT INTO clients_search (rowid, search_text) VALUES (new.seq, new.search_text);
  END`.execute(db);
  await sql`CREATE TRIGGER clients_search_delete AFTER DELETE ON clients BEGIN
    INSERT INTO clients_search (clients_search, rowid, search_text)
    VALUES ('delete', old.seq, old.search_text);
  END`.execute(db);
  await sql`CREATE TRIGGER clients_search_update AFTER UPDATE OF search_text ON clients BEGIN
    INSERT INTO clients_search (clients_search, rowid, search_text)
    VALUES ('delete', old.seq, old.search_text);
    INSERT INTO clients_search (rowid, search_text) VALUES (new.seq, new.search_text);
  END`.execute(db);
  await sql`INSERT INTO clients_search (clients_search) VALUES ('rebuild')`.execute(db);
}
