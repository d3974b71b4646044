// The benchmarks' clients: the same 100,000 people on SQLite and PostgreSQL, written straight
// into the database (the app's own rules for search text), so loads compare like for like.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { addDays } from '../src/shared/ledger-schema.ts';
import { searchTextOf } from '../src/shared/search-text.ts';

const firstNames = [
  'Aarav',
  'Vivaan',
  'Aditya',
  'Vihaan',
  'Arjun',
  'Sai',
  'Reyansh',
  'Ayaan',
  'Krishna',
  'Ishaan',
  'Ananya',
  'Diya',
  'Aadhya',
  'Saanvi',
  'Pari',
  'Anika',
  'Navya',
  'Myra',
  'Sara',
  'Kiara',
];
const lastNames = [
  'Sharma',
  'Verma',
  'Gupta',
  'Singh',
  'Kumar',
  'Patel',
  'Reddy',
  'Iyer',
  'Nair',
  'Das',
  'Bose',
  'Mehta',
  'Shah',
  'Joshi',
  'Rao',
  'Pillai',
  'Menon',
  'Chopra',
  'Malhotra',
  'Kapoor',
];

/** A broad search (a common surname: 5% of all clients) and a specific one (part of an e-mail). */
export const SEARCHES = ['kumar', 'sharma.12'];

export interface SeedClient {
  id: string;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  phoneDisplay: string;
  searchText: string;
  balancePaise: bigint;
  createdAt: string;
}

export function seedClient(i: number): SeedClient {
  const fname = firstNames[i % firstNames.length] ?? 'A';
  const surname = lastNames[Math.floor(i / firstNames.length) % lastNames.length] ?? 'B';
  const fields = {
    fname,
    lname: `${surname}${i % 97}`,
    email: `${fname}.${surname}.${i}@example.com`.toLowerCase(),
    // Indian mobile numbers (6–9 and 9 digits are all real ones), stored as the app does.
    phone: `+91${9_000_000_000 + i}`,
  };
  const digits = fields.phone.slice(3);
  return {
    id: randomUUID(),
    ...fields,
    phoneDisplay: `${digits.slice(0, 5)} ${digits.slice(5)}`,
    searchText: searchTextOf(fields),
    balancePaise: BigInt(((i * 7919) % 10_000_000) - 2_000_000),
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  };
}

export function seedSqlite(file: string, ownerId: string, count: number): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(
    `INSERT INTO clients (id, owner_id, fname, lname, email, phone, phone_display, search_text,
       balance_paise, version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  );
  let total = 0n;
  db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const c = seedClient(i);
      total += c.balancePaise;
      insert.run(
        c.id,
        ownerId,
        c.fname,
        c.lname,
        c.email,
        c.phone,
        c.phoneDisplay,
        c.searchText,
        c.balancePaise,
        c.createdAt,
        c.createdAt,
      );
    }
    db.prepare(
      `INSERT INTO owner_totals (owner_id, client_count, total_paise) VALUES (?, ?, ?)
       ON CONFLICT (owner_id) DO UPDATE SET client_count = excluded.client_count,
         total_paise = excluded.total_paise`,
    ).run(ownerId, BigInt(count), total);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const PG_BATCH = 10_000;

export async function seedPostgres(url: string, ownerId: string, count: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let total = 0n;
  try {
    await client.query('BEGIN');
    for (let start = 0; start < count; start += PG_BATCH) {
      const rows = Array.from({ length: Math.min(PG_BATCH, count - start) }, (_, k) =>
        seedClient(start + k),
      );
      for (const row of rows) total += row.balancePaise;
      const column = <K extends keyof SeedClient>(key: K) => rows.map((row) => String(row[key]));
      await client.query(
        `INSERT INTO clients (id, owner_id, fname, lname, email, phone, phone_display, search_text,
           balance_paise, version, created_at, updated_at)
         SELECT id, $2, fname, lname, email, phone, phone_display, search_text, balance, 1, created,
           created
         FROM unnest($1::text[], $3::text[], $4::text[], $5::text[], $6::text[], $10::text[],
           $7::text[], $8::bigint[], $9::text[])
           AS t(id, fname, lname, email, phone, phone_display, search_text, balance, created)`,
        [
          column('id'),
          ownerId,
          column('fname'),
          column('lname'),
          column('email'),
          column('phone'),
          column('searchText'),
          column('balancePaise'),
          column('createdAt'),
          column('phoneDisplay'),
        ],
      );
    }
    await client.query(
      `INSERT INTO owner_totals (owner_id, client_count, total_paise) VALUES ($1, $2, $3)
       ON CONFLICT (owner_id) DO UPDATE SET client_count = excluded.client_count,
         total_paise = excluded.total_paise`,
      [ownerId, String(count), String(total)],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE clients');
  } finally {
    await client.end();
  }
}

const HEAVY_ENTRIES = 10_000;
/** Seeded entries span the two years up to today; the heavy client's all fall in the last. */
const SPAN_DAYS = 730;

export interface Seeded {
  clientIds: string[];
  /** The busy client: 10,000 entries, all in the last year. */
  heavyId: string;
  entries: number;
}

/**
 * Writes the clients, their entries (an opening and then charges and payments on dates over
 * two years), the balances, last payments, running totals and daily deltas straight into
 * the database, as the app would have left them.
 */
export function seedLedgerSqlite(
  file: string,
  ownerId: string,
  options: { clients: number; entries: number; today: string },
): Seeded {
  const { clients: CLIENTS, entries: ENTRIES } = options;
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const end = options.today;
  const start = addDays(end, -(SPAN_DAYS - 1));
  const insertClient = db.prepare(
    `INSERT INTO clients (id, owner_id, fname, lname, email, phone, phone_display, search_text,
       balance_paise, version, last_payment_on, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`,
  );
  const insertEntry = db.prepare(
    `INSERT INTO ledger_entries (id, owner_id, client_id, kind, amount_paise, balance_after_paise,
       note, on_date, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, ?)`,
  );
  const deltas = new Map<string, bigint>();
  const totals = { count: 0n, total: 0n, owingCount: 0n, owing: 0n, creditCount: 0n, credit: 0n };
  const clientIds: string[] = [];
  let seed = 42;
  const random = () => {
    // A fixed sequence (xorshift), so that every run seeds the same ledger.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4_294_967_296;
  };

  const writeClient = (i: number, entryCount: number, firstDay: string, days: number): string => {
    const client = seedClient(i);
    let balance = 0n;
    let lastPayment: string | null = null;
    const stepDays = days / entryCount;
    const rows: [string, bigint, bigint, string][] = [];
    for (let k = 0; k < entryCount; k += 1) {
      const on = addDays(firstDay, Math.floor(k * stepDays));
      const kind = k === 0 ? 'opening' : random() < 0.5 ? 'payment' : 'charge';
      const rupees = BigInt(Math.floor(random() * 5_000) + 1) * 100n;
      const amount =
        kind === 'opening' ? client.balancePaise : kind === 'payment' ? -rupees : rupees;
      balance += amount;
      if (kind === 'payment') lastPayment = on;
      rows.push([kind, amount, balance, on]);
      deltas.set(on, (deltas.get(on) ?? 0n) + amount);
    }
    insertClient.run(
      client.id,
      ownerId,
      client.fname,
      client.lname,
      client.email,
      client.phone,
      client.phoneDisplay,
      client.searchText,
      balance,
      lastPayment,
      client.createdAt,
      client.createdAt,
    );
    for (const [kind, amount, after, on] of rows) {
      insertEntry.run(
        randomUUID(),
        ownerId,
        client.id,
        kind,
        amount,
        after,
        on,
        `${on}T09:00:00.000Z`,
        ownerId,
      );
    }
    totals.count += 1n;
    totals.total += balance;
    if (balance > 0n) {
      totals.owingCount += 1n;
      totals.owing += balance;
    } else if (balance < 0n) {
      totals.creditCount += 1n;
      totals.credit += balance;
    }
    return client.id;
  };

  let heavyId = '';
  db.transaction(() => {
    // The rest of the entries spread evenly: every client has an opening and some more.
    const rest = Math.max(CLIENTS - 1, ENTRIES - HEAVY_ENTRIES);
    const perClient = Math.floor(rest / (CLIENTS - 1));
    const extra = rest % (CLIENTS - 1);
    for (let i = 0; i < CLIENTS - 1; i += 1) {
      clientIds.push(writeClient(i, perClient + (i < extra ? 1 : 0), start, SPAN_DAYS));
    }
    // A busy client: 10,000 entries, all within the last year (about 27 a day).
    heavyId = writeClient(CLIENTS - 1, HEAVY_ENTRIES, addDays(end, -364), 365);
    clientIds.push(heavyId);
    const insertDelta = db.prepare(
      'INSERT INTO owner_daily_deltas (owner_id, on_date, delta_paise) VALUES (?, ?, ?)',
    );
    for (const [on, delta] of deltas) insertDelta.run(ownerId, on, delta);
    db.prepare(
      `INSERT INTO owner_totals (owner_id, client_count, total_paise, owing_count, owing_paise,
         credit_count, credit_paise) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (owner_id) DO UPDATE SET client_count = excluded.client_count,
         total_paise = excluded.total_paise, owing_count = excluded.owing_count,
         owing_paise = excluded.owing_paise, credit_count = excluded.credit_count,
         credit_paise = excluded.credit_paise`,
    ).run(
      ownerId,
      totals.count,
      totals.total,
      totals.owingCount,
      totals.owing,
      totals.creditCount,
      totals.credit,
    );
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  const [entries] = db.prepare('SELECT count(*) AS n FROM ledger_entries').pluck().all() as [
    number,
  ];
  // The ledger adds up: no client's balance differs from the sum of its entries.
  const [mismatched] = db
    .prepare(
      `SELECT count(*) FROM clients c WHERE c.balance_paise !=
         (SELECT coalesce(sum(amount_paise), 0) FROM ledger_entries e WHERE e.client_id = c.id)`,
    )
    .pluck()
    .all() as [number];
  db.close();
  if (mismatched !== 0) throw new Error(`${mismatched} seeded balances differ from their entries`);
  return { clientIds, heavyId, entries };
}
