import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * Migration 0020: shared books (issue 23, docs/decisions/0039-shared-books.md). A book holds
 * what each operator held alone until now (clients, ledger, dues, collection settings, links,
 * claims, reminders, promises); its members each have a role in it.
 *
 * Each account's clients become its own book, with the account as its owner, and that book
 * takes the account's id: every `owner_id` already stored is then the id of its book, so no row
 * of the book's data is rewritten. Only the foreign keys change target, from the account to the
 * book: on PostgreSQL by ALTER TABLE; on SQLite, which cannot alter a constraint, by rewriting
 * the tables' definitions in place (the rows are stored the same either way; the database's
 * hook checks the keys afterwards). The session gains the book it works in.
 *
 * Self-contained, as every migration is (docs/decisions/0032-frozen-migrations.md).
 */
export interface SharedBooksMigrationOptions {
  rewriteTableDefinitions?(
    tables: readonly string[],
    rewrite: (definition: string) => string,
  ): void;
}

/** The tables whose `owner_id` named the account, and now names the book. */
const BOOK_TABLES = [
  'clients',
  'owner_totals',
  'ledger_entries',
  'owner_daily_deltas',
  'deleted_clients',
  'collection_settings',
  'share_links',
  'payment_claims',
  'reminders',
  'promises',
  'dues',
  'owner_dues',
  'collect_done',
] as const;

export function sharedBooksMigration(options: SharedBooksMigrationOptions): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
      await createTables(db, sqlite);
      await booksOfEveryAccount(db);
      if (sqlite) {
        if (!options.rewriteTableDefinitions) throw new Error('SQLite without its schema hook');
        options.rewriteTableDefinitions(BOOK_TABLES, (definition) =>
          definition.replace(
            /("owner_id" text (?:not null|primary key) references) "user" \("id"\)/,
            '$1 "books" ("id")',
          ),
        );
      } else {
        for (const table of BOOK_TABLES) await retargetPostgres(db, table);
      }
      // The book a session works in; none yet means the account's own (its id).
      await sql`ALTER TABLE session ADD COLUMN current_book_id text`.execute(db);
    },
  };
}

async function createTables(db: Kysely<unknown>, sqlite: boolean): Promise<void> {
  await db.schema
    .createTable('books')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('book_members')
    .addColumn('book_id', 'text', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) =>
      c.notNull().check(sql`role IN ('owner', 'manager', 'staff', 'viewer')`),
    )
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('book_members_pkey', ['book_id', 'user_id'])
    .execute();
  // An account's books, in the order it joined them (its first is where a session goes when
  // its book is gone).
  await db.schema
    .createIndex('book_members_user')
    .on('book_members')
    .columns(['user_id', 'joined_at'])
    .execute();
  // One owner per book: handing it over changes two rows in one transaction.
  await sql`CREATE UNIQUE INDEX book_members_one_owner ON book_members (book_id)
    WHERE role = 'owner'`.execute(db);
  await db.schema
    .createTable('book_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('book_id', 'text', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('token_digest', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) =>
      c.notNull().check(sql`role IN ('manager', 'staff', 'viewer')`),
    )
    .addColumn('created_by', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('used_by', 'text', (c) => c.references('user.id').onDelete('set null'))
    .execute();
  await db.schema
    .createTable('activity')
    .addColumn('seq', sqlite ? 'integer' : 'bigserial', (c) => c.primaryKey())
    .addColumn('book_id', 'text', (c) => c.notNull().references('books.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    // No foreign key: the log outlives a purged client.
    .addColumn('client_id', 'text')
    .addColumn('summary', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activity_book').on('activity').columns(['book_id', 'seq']).execute();
  await db.schema
    .createIndex('activity_book_client')
    .on('activity')
    .columns(['book_id', 'client_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('activity_book_actor')
    .on('activity')
    .columns(['book_id', 'actor_id', 'seq'])
    .execute();
}

/**
 * Every account's book: named after its business where the collection settings name one, else
 * after the account, and owned by it.
 */
async function booksOfEveryAccount(db: Kysely<unknown>): Promise<void> {
  const now = new Date().toISOString();
  await sql`INSERT INTO books (id, name, created_at)
    SELECT u.id, COALESCE(NULLIF(TRIM(cs.business_name), ''), NULLIF(TRIM(u.name), ''), u.email),
      ${now}
    FROM "user" u LEFT JOIN collection_settings cs ON cs.owner_id = u.id`.execute(db);
  await sql`INSERT INTO book_members (book_id, user_id, role, joined_at)
    SELECT u.id, u.id, 'owner', ${now} FROM "user" u`.execute(db);
}

async function retargetPostgres(db: Kysely<unknown>, table: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.conname AS name FROM pg_constraint c
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
    WHERE c.conrelid = ${table}::regclass AND c.contype = 'f' AND a.attname = 'owner_id'`.execute(
    db,
  );
  for (const { name } of rows) {
    await sql`ALTER TABLE ${sql.table(table)} DROP CONSTRAINT ${sql.ref(name)}`.execute(db);
  }
  await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.ref(`${table}_owner_id_fkey`)}
    FOREIGN KEY (owner_id) REFERENCES books (id) ON DELETE CASCADE`.execute(db);
}
