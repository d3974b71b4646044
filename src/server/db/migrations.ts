import { randomUUID } from 'node:crypto';
import {
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  SqliteAdapter,
  sql,
} from 'kysely';
import { parsePhoneNumberFromString as parseWithDefaultMetadata } from 'libphonenumber-js';
import { searchTextOf } from '../../shared/search-text.ts';
import { dateIn } from '../ledger/panel-date.ts';
import type { Database } from './database.ts';
import { exactInteger } from './integers.ts';
import { phoneValidMigration } from './migrations/0013-phone-valid.ts';

export interface MigrationOptions {
  /** The panel's time zone: existing clients' opening entries are dated in it. */
  timeZone: string;
  /**
   * The last migration to run (all when unset): a test of a migration starts from a panel as
   * it was before it.
   */
  upTo?: string;
}

/**
 * The app's own tables, after better-auth has created its own ("user", "session", …).
 * Append only: a migration that has run somewhere must never change.
 */
function appMigrations(options: MigrationOptions): Record<string, Migration> {
  return {
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
          .addColumn('owner_id', 'text', (c) =>
            c.notNull().references('user.id').onDelete('cascade'),
          )
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
        if (sqlite) await createLegacySqliteSearchIndex(db);
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
    '0003_search_text_and_administrator': {
      async up(db: Kysely<unknown>) {
        const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
        await db.schema
          .alterTable('settings')
          .addColumn('admin_claimed', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`UPDATE settings SET admin_claimed = 1 WHERE EXISTS (SELECT 1 FROM "user")`.execute(
          db,
        );
        // Search matches one folded column (clients/search-text.ts) on both dialects.
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
    },
    '0004_postgres_search_index_and_bus': {
      async up(db: Kysely<unknown>) {
        if (db.getExecutor().adapter instanceof SqliteAdapter) return;
        // Search on PostgreSQL through a trigram index over the folded search text
        // (docs/decisions/0012-postgres-scale-out.md): LIKE '%…%' uses it for 3+ characters.
        await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
        await sql`CREATE INDEX clients_search_trgm ON clients
        USING gin (search_text gin_trgm_ops)`.execute(db);
        // Live messages too large for a NOTIFY payload travel by reference to a row here.
        await sql`CREATE TABLE bus_messages (
        id bigserial PRIMARY KEY,
        payload text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now())`.execute(db);
      },
    },
    '0005_owing_and_credit_totals': {
      async up(db: Kysely<unknown>) {
        // The running totals split by sign, so a balance filter is counted without a scan.
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
    },
    '0006_canonical_phone_numbers': {
      async up(db: Kysely<unknown>) {
        // Phones were 10 digits as typed; now one form (E.164) that any written form finds.
        await rewriteClients(db, (row) => {
          const phone = canonicalPhone(row.phone);
          return { phone, search_text: searchTextOf({ ...row, phone }) };
        });
      },
    },
    '0007_ledger': {
      async up(db: Kysely<unknown>) {
        await createLedger(db);
        await openExistingBalances(db, options.timeZone);
      },
    },
    '0008_restorable_deletes': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('deleted_clients')
          .addColumn('client_id', 'text', (c) => c.primaryKey())
          .addColumn('owner_id', 'text', (c) =>
            c.notNull().references('user.id').onDelete('cascade'),
          )
          .addColumn('deleted_at', 'text', (c) => c.notNull())
          .addColumn('client_row', 'text', (c) => c.notNull())
          .addColumn('entry_rows', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('deleted_clients_deleted_at')
          .on('deleted_clients')
          .column('deleted_at')
          .execute();
      },
    },
    '0009_phone_display': {
      async up(db: Kysely<unknown>) {
        // Phones as people read them, formatted once when written: formatting 100,000 of them
        // with libphonenumber took over a second of every export.
        await db.schema.alterTable('clients').addColumn('phone_display', 'text').execute();
        await rewriteClients(db, (row) => ({ phone_display: formatPhoneAsIn0009(row.phone) }));
      },
    },
    '0010_operator_deactivations': {
      async up(db: Kysely<unknown>) {
        // A deactivated operator (docs/decisions/0025-deactivating-operators.md): a row here,
        // in a table of ours rather than a column of better-auth's user table, whose schema
        // is better-auth's to migrate. Reactivating deletes the row.
        await db.schema
          .createTable('operator_deactivations')
          .addColumn('user_id', 'text', (c) =>
            c.primaryKey().references('user.id').onDelete('cascade'),
          )
          .addColumn('deactivated_at', 'text', (c) => c.notNull())
          // Who deactivated them: an administrator's id (kept if that account goes).
          .addColumn('deactivated_by', 'text')
          .execute();
      },
    },
    '0011_require_two_factor': {
      async up(db: Kysely<unknown>) {
        // The administrator's policy (docs/decisions/0026-two-factor-sign-in.md); off, as a
        // new panel must be usable with a password alone.
        await db.schema
          .alterTable('settings')
          .addColumn('require_two_factor', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
      },
    },
    '0012_one_two_factor_row_per_operator': {
      async up(db: Kysely<unknown>) {
        // better-auth's table indexes userId without making it unique: two setups at once
        // could leave two rows, and sign-in read the unconfirmed one. Setups are upserts on
        // this index (auth/two-factor.ts).
        await db.schema
          .createIndex('two_factor_user_unique')
          .on('twoFactor')
          .column('userId')
          .unique()
          .execute();
      },
    },
    '0013_phone_valid': phoneValidMigration,
  };
}

/** The ledger, each operator's daily changes of the total, and the last-payment sort. */
async function createLedger(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('ledger_entries')
    .addColumn('seq', sqlite ? 'integer' : 'bigserial', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind IN ('opening', 'charge', 'payment', 'adjustment')`),
    )
    .addColumn('amount_paise', 'bigint', (c) => c.notNull())
    .addColumn('balance_after_paise', 'bigint', (c) => c.notNull())
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('on_date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .execute();
  // A client's history newest first, and its statements by date.
  await db.schema
    .createIndex('ledger_client_seq')
    .on('ledger_entries')
    .columns(['client_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('ledger_client_on')
    .on('ledger_entries')
    .columns(['client_id', 'on_date', 'seq'])
    .execute();
  await db.schema.alterTable('clients').addColumn('last_payment_on', 'text').execute();
  // Never paid sorts as the longest ago: NULL first going up, on both databases.
  await sql
    .raw(
      `CREATE INDEX clients_owner_last_payment ON clients (owner_id, last_payment_on${
        sqlite ? '' : ' ASC NULLS FIRST'
      }, seq)`,
    )
    .execute(db);
  await db.schema
    .createTable('owner_daily_deltas')
    .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('on_date', 'text', (c) => c.notNull())
    .addColumn('delta_paise', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('owner_daily_deltas_pk', ['owner_id', 'on_date'])
    .execute();
}

/**
 * Clients from before the ledger get an opening entry for their balance, dated on the day
 * they were created, and each operator's total is booked on those days, so that the sum of
 * every client's entries is its balance and the history of the total adds up to today's.
 */
async function openExistingBalances(db: Kysely<unknown>, timeZone: string): Promise<void> {
  const ledger = db as unknown as Kysely<{
    clients: {
      seq: number;
      id: string;
      owner_id: string;
      balance_paise: bigint;
      created_at: string;
    };
    ledger_entries: {
      id: string;
      owner_id: string;
      client_id: string;
      kind: string;
      amount_paise: bigint;
      balance_after_paise: bigint;
      note: string;
      on_date: string;
      created_at: string;
      created_by: string;
    };
    owner_daily_deltas: { owner_id: string; on_date: string; delta_paise: bigint };
  }>;
  const deltas = new Map<string, bigint>();
  let after = 0;
  for (;;) {
    const rows = await ledger
      .selectFrom('clients')
      .select(['seq', 'id', 'owner_id', 'balance_paise', 'created_at'])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const balance = exactInteger(row.balance_paise);
      if (balance === 0n) continue;
      const on = dateIn(timeZone, new Date(row.created_at));
      await ledger
        .insertInto('ledger_entries')
        .values({
          id: randomUUID(),
          owner_id: row.owner_id,
          client_id: row.id,
          kind: 'opening',
          amount_paise: balance,
          balance_after_paise: balance,
          note: '',
          on_date: on,
          created_at: row.created_at,
          created_by: row.owner_id,
        })
        .execute();
      const key = `${row.owner_id}\u0000${on}`;
      deltas.set(key, (deltas.get(key) ?? 0n) + balance);
    }
    after = Number(rows[rows.length - 1]?.seq);
  }
  for (const [key, delta] of deltas) {
    const [owner_id = '', on_date = ''] = key.split('\u0000');
    await ledger
      .insertInto('owner_daily_deltas')
      .values({ owner_id, on_date, delta_paise: delta })
      .execute();
  }
}

/*
 * Migrations 0006 and 0009 as they ran: with libphonenumber's default metadata, which the
 * app's rule (shared/phone.ts) left in 0013 for the full one.
 */

/** An old phone in its stored form: parsed when valid, else an Indian number by its digits. */
function canonicalPhone(phone: string): string {
  const text = phone.trim();
  const parsed = /^\+?[\d\s().-]+$/.test(text) ? parseWithDefaultMetadata(text, 'IN') : undefined;
  if (parsed?.isValid()) return parsed.number;
  return /^\d{10}$/.test(phone) ? `+91${phone}` : phone;
}

function formatPhoneAsIn0009(stored: string): string {
  const parsed = parseWithDefaultMetadata(stored, 'IN');
  if (!parsed) return stored;
  return parsed.country === 'IN'
    ? parsed.formatNational().replace(/^0/, '')
    : parsed.formatInternational();
}

const BACKFILL_BATCH = 1000;

interface ClientSearchRow {
  seq: number;
  fname: string;
  lname: string;
  email: string;
  phone: string;
}

/** Rewrites columns of every client, a batch at a time, from what the row holds. */
async function rewriteClients(
  db: Kysely<unknown>,
  change: (row: ClientSearchRow) => {
    phone?: string;
    search_text?: string;
    phone_display?: string;
  },
): Promise<void> {
  const clients = db as unknown as Kysely<{
    clients: ClientSearchRow & { search_text: string; phone_display: string | null };
  }>;
  let after = 0;
  for (;;) {
    const rows = await clients
      .selectFrom('clients')
      .select(['seq', 'fname', 'lname', 'email', 'phone'])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(BACKFILL_BATCH)
      .execute();
    if (rows.length === 0) return;
    for (const row of rows) {
      await clients.updateTable('clients').set(change(row)).where('seq', '=', row.seq).execute();
    }
    after = Number(rows[rows.length - 1]?.seq);
  }
}

function backfillSearchText(db: Kysely<unknown>): Promise<void> {
  return rewriteClients(db, (row) => ({ search_text: searchTextOf(row) }));
}

/**
 * The first search index (0002): four columns, folded by SQLite itself. Kept only so that
 * migration 0002 stays as it ran; 0003 replaces it.
 */
async function createLegacySqliteSearchIndex(db: Kysely<unknown>): Promise<void> {
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

class InCodeMigrations implements MigrationProvider {
  constructor(private readonly options: MigrationOptions) {}
  async getMigrations() {
    return appMigrations(this.options);
  }
}

export async function runAppMigrations(
  database: Database,
  options: MigrationOptions,
): Promise<void> {
  const migrator = new Migrator({
    db: database.db,
    provider: new InCodeMigrations(options),
    migrationTableName: 'app_migrations',
    migrationLockTableName: 'app_migrations_lock',
  });
  const { error, results } = await (options.upTo === undefined
    ? migrator.migrateToLatest()
    : migrator.migrateTo(options.upTo));
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}
