import { randomUUID } from 'node:crypto';
import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

/**
 * Migration 0007: the ledger, each operator's daily changes of the total, and the last-payment
 * sort. Clients from before it get an opening entry dated in the panel's time zone.
 */
export function ledgerMigration(timeZone: string): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await createLedger(db);
      await openExistingBalances(db, timeZone);
    },
  };
}

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

const BATCH = 1000;

/** An integer as the drivers hand it over: number, bigint (SQLite) or decimal text (pg). */
type DriverInteger = number | bigint | string;

interface LedgerTables {
  clients: {
    seq: number;
    id: string;
    owner_id: string;
    balance_paise: DriverInteger;
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
}

/**
 * Each client with a balance gets an opening entry for it, dated on the day it was created,
 * and each operator's total is booked on those days, so that the sum of every client's entries
 * is its balance and the history of the total adds up to today's.
 */
async function openExistingBalances(db: Kysely<unknown>, timeZone: string): Promise<void> {
  const ledger = db as unknown as Kysely<LedgerTables>;
  const deltas = new Map<string, bigint>();
  for (let after = 0; ; ) {
    const rows = await ledger
      .selectFrom('clients')
      .select(['seq', 'id', 'owner_id', 'balance_paise', 'created_at'])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(BATCH)
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

function exactInteger(value: DriverInteger): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`not an exact integer: ${value}`);
    return BigInt(value);
  }
  if (!/^-?\d+$/.test(value)) throw new Error(`not an integer: ${value}`);
  return BigInt(value);
}

/** The calendar day (YYYY-MM-DD) of a moment in the given time zone. */
function dateIn(timeZone: string, at: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
