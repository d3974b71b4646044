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
/** Days after its date that a seeded charge is due when the operator picked a date on the form. */
const PICKED_DUE_DAYS = [7, 15, 30, 45];

export interface Seeded {
  clientIds: string[];
  /** The busy client: 10,000 entries, all in the last year. */
  heavyId: string;
  entries: number;
  /**
   * Clients in credit at the end: a payment on one leaves its (no) unpaid amounts alone. In a
   * fixed order scattered over the table, as `arrears`.
   */
  creditIds: string[];
  /**
   * Clients owing at the end, in a fixed order scattered over the table, each with a payment that
   * settles its oldest unpaid amount and half the next (what a customer paying off arrears brings).
   */
  arrears: { id: string; unpaid: number; paymentPaise: bigint }[];
  /** Unpaid amounts (`dues` rows) and the operator's sums by (due date, previous date). */
  dues: number;
  ownerDues: number;
}

/** Numbers in [0, 1) from xorshift: the same sequence for a seed on every run. */
function fixedSequence(start: number): () => number {
  let seed = start;
  return () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4_294_967_296;
  };
}

/** Fisher–Yates with the seed's own fixed sequence: the same order on every run. */
function shuffle<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}

/** A copy of `items` in a scattered order, the same on every run. */
export function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  shuffle(copy, fixedSequence(7));
  return copy;
}

interface Unpaid {
  dueOn: string;
  paise: bigint;
}

/**
 * The app's rule for unpaid amounts (docs/api.md, "Due dates"), written out for the seed: a
 * write moves what is owed from max(before, 0) to max(after, 0); a rise is due on the entry's
 * due date, a fall settles the earliest due first. `unpaid` stays sorted by due date.
 */
function moveUnpaid(unpaid: Unpaid[], before: bigint, after: bigint, dueOn: string | null): void {
  const owedBefore = before > 0n ? before : 0n;
  const owedAfter = after > 0n ? after : 0n;
  if (owedAfter > owedBefore) {
    if (dueOn === null) throw new Error('a rise of the balance with no due date');
    const rise = owedAfter - owedBefore;
    const same = unpaid.find((amount) => amount.dueOn === dueOn);
    if (same) same.paise += rise;
    else {
      const at = unpaid.findIndex((amount) => amount.dueOn > dueOn);
      unpaid.splice(at === -1 ? unpaid.length : at, 0, { dueOn, paise: rise });
    }
  }
  let settle = owedBefore - owedAfter;
  while (settle > 0n) {
    const oldest = unpaid[0];
    if (!oldest) throw new Error('unpaid amounts fall short of the balance');
    if (oldest.paise <= settle) {
      settle -= oldest.paise;
      unpaid.shift();
    } else {
      oldest.paise -= settle;
      settle = 0n;
    }
  }
}

/**
 * Writes the clients, their entries (an opening and then charges and payments on dates over
 * two years), the balances, last payments, running totals and daily deltas straight into
 * the database, as the app would have left them — with the unpaid amounts the writes would
 * have left (issue 21): each charge due at once or on a date picked 7–45 days on, payments
 * mostly paying off part or all of what is owed, `dues`, `owner_dues`, the clients' oldest and
 * latest due dates and each day's collected sum kept as the app keeps them.
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
       balance_paise, version, last_payment_on, created_at, updated_at, oldest_due_on,
       latest_due_on)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
  );
  const insertEntry = db.prepare(
    `INSERT INTO ledger_entries (id, owner_id, client_id, kind, amount_paise, balance_after_paise,
       note, on_date, created_at, created_by, due_on) VALUES (?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?)`,
  );
  const insertDue = db.prepare(
    `INSERT INTO dues (client_id, due_on, owner_id, amount_paise, prev_due_on)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const deltas = new Map<string, { delta: bigint; collected: bigint }>();
  /** The operator's sums by "due date|previous due date" ('' when none is older). */
  const ownerDues = new Map<string, { paise: bigint; clients: bigint }>();
  const totals = { count: 0n, total: 0n, owingCount: 0n, owing: 0n, creditCount: 0n, credit: 0n };
  const clientIds: string[] = [];
  const creditIds: string[] = [];
  const arrears: Seeded['arrears'] = [];
  let dueRows = 0;
  // A fixed sequence, so that every run seeds the same ledger.
  const random = fixedSequence(42);

  const writeClient = (i: number, entryCount: number, firstDay: string, days: number): string => {
    const client = seedClient(i);
    let balance = 0n;
    let lastPayment: string | null = null;
    const unpaid: Unpaid[] = [];
    const stepDays = days / entryCount;
    // Each client's entries start at a day of their own, so that the last ones fall anywhere
    // in the last stretch (some charges not due yet, some just overdue), not all on one day.
    const phase = random() * stepDays;
    const rows: [string, bigint, bigint, string, string | null][] = [];
    // The range of seedClient's balances (-20,000 to 80,000 rupees), drawn rather than taken
    // from the index: its first few hundred clients are all in credit, and a small seed needs
    // clients owing as well.
    const opening = BigInt(Math.floor(random() * 100_000) - 20_000) * 100n;
    for (let k = 0; k < entryCount; k += 1) {
      const on = addDays(firstDay, Math.floor(k * stepDays + phase));
      const kind = k === 0 ? 'opening' : random() < 0.5 ? 'payment' : 'charge';
      const rupees = BigInt(Math.floor(random() * 5_000) + 1) * 100n;
      // Most payments pay off part of what is owed, some all of it or more (credit ahead).
      const owed = balance > 0n ? balance : 0n;
      const paid =
        owed > 0n && random() < 0.7
          ? ((owed * BigInt(Math.floor(random() * 80) + 50)) / 10_000n) * 100n || 100n
          : rupees;
      const amount = kind === 'opening' ? opening : kind === 'payment' ? -paid : rupees;
      const picked = PICKED_DUE_DAYS[Math.floor(random() * PICKED_DUE_DAYS.length)] ?? 0;
      const dueOn =
        amount <= 0n ? null : kind === 'charge' && random() < 0.4 ? addDays(on, picked) : on;
      moveUnpaid(unpaid, balance, balance + amount, dueOn);
      balance += amount;
      if (kind === 'payment') lastPayment = on;
      rows.push([kind, amount, balance, on, dueOn]);
      const day = deltas.get(on) ?? { delta: 0n, collected: 0n };
      day.delta += amount;
      if (kind === 'payment') day.collected -= amount;
      deltas.set(on, day);
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
      unpaid[0]?.dueOn ?? null,
      unpaid.at(-1)?.dueOn ?? null,
    );
    for (const [kind, amount, after, on, dueOn] of rows) {
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
        dueOn,
      );
    }
    let prev = '';
    for (const amount of unpaid) {
      insertDue.run(client.id, amount.dueOn, ownerId, amount.paise, prev || null);
      const key = `${amount.dueOn}|${prev}`;
      const sum = ownerDues.get(key) ?? { paise: 0n, clients: 0n };
      sum.paise += amount.paise;
      sum.clients += 1n;
      ownerDues.set(key, sum);
      prev = amount.dueOn;
      dueRows += 1;
    }
    totals.count += 1n;
    totals.total += balance;
    if (balance > 0n) {
      totals.owingCount += 1n;
      totals.owing += balance;
      const [oldest, next] = unpaid;
      if (oldest) {
        arrears.push({
          id: client.id,
          unpaid: unpaid.length,
          paymentPaise: oldest.paise + (next ? next.paise / 2n : 0n),
        });
      }
    } else if (balance < 0n) {
      totals.creditCount += 1n;
      totals.credit += balance;
      creditIds.push(client.id);
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
      `INSERT INTO owner_daily_deltas (owner_id, on_date, delta_paise, collected_paise)
       VALUES (?, ?, ?, ?)`,
    );
    for (const [on, day] of deltas) insertDelta.run(ownerId, on, day.delta, day.collected);
    const insertOwnerDues = db.prepare(
      `INSERT INTO owner_dues (owner_id, due_on, prev_due_on, amount_paise, clients)
       VALUES (?, ?, ?, ?, ?)`,
    );
    for (const [key, sum] of ownerDues) {
      const [dueOn, prev] = key.split('|');
      insertOwnerDues.run(ownerId, dueOn, prev, sum.paise, sum.clients);
    }
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
  const duesProblems = unpaidProblemsSqlite(db, ownerId);
  db.close();
  if (mismatched !== 0) throw new Error(`${mismatched} seeded balances differ from their entries`);
  if (duesProblems) throw new Error(`the seeded unpaid amounts do not add up: ${duesProblems}`);
  // Both kinds of client in an order scattered over the table, as a day's payments come: in
  // the order seeded, one batch's payments would share the pages of the clients table and its
  // indexes, which made payments on clients in credit look cheaper than settling ones for where
  // the bench's clients lie (docs/decisions/0036-unpaid-amounts.md).
  shuffle(creditIds, random);
  shuffle(arrears, random);
  return {
    clientIds,
    heavyId,
    entries,
    creditIds,
    arrears,
    dues: dueRows,
    ownerDues: ownerDues.size,
  };
}

/**
 * What is wrong with an operator's unpaid amounts as stored, or null: each client's add up to
 * what it owes, the clients' oldest and latest due dates are their first and last, every
 * amount names the one before it, and the operator's sums are the sums of its amounts.
 */
export function unpaidProblemsSqlite(db: Database.Database, ownerId: string): string | null {
  const count = (query: string) =>
    (db.prepare(query).pluck().get({ owner: ownerId }) as number | bigint | null) ?? 0;
  const problems = {
    'clients whose unpaid amounts differ from what they owe': count(
      `SELECT count(*) FROM clients c WHERE c.owner_id = @owner AND
         (CASE WHEN c.balance_paise > 0 THEN c.balance_paise ELSE 0 END) !=
         (SELECT coalesce(sum(amount_paise), 0) FROM dues d WHERE d.client_id = c.id)`,
    ),
    'clients whose oldest or latest due date is not their first or last': count(
      `SELECT count(*) FROM clients c WHERE c.owner_id = @owner AND (
         c.oldest_due_on IS NOT (SELECT min(due_on) FROM dues d WHERE d.client_id = c.id) OR
         c.latest_due_on IS NOT (SELECT max(due_on) FROM dues d WHERE d.client_id = c.id))`,
    ),
    'unpaid amounts not naming the one before': count(
      `SELECT count(*) FROM dues d WHERE d.owner_id = @owner AND d.prev_due_on IS NOT
         (SELECT max(due_on) FROM dues p WHERE p.client_id = d.client_id AND p.due_on < d.due_on)`,
    ),
    "sums of the operator's that differ from its amounts": count(
      // Sums at zero wait for the purge job: they count for nothing.
      `WITH stored AS (SELECT due_on, prev_due_on, amount_paise, clients FROM owner_dues
           WHERE owner_id = @owner AND clients <> 0),
         summed AS (SELECT due_on, coalesce(prev_due_on, '') AS prev_due_on,
           sum(amount_paise) AS amount_paise, count(*) AS clients FROM dues
           WHERE owner_id = @owner GROUP BY due_on, coalesce(prev_due_on, ''))
       SELECT (SELECT count(*) FROM (SELECT * FROM stored EXCEPT SELECT * FROM summed))
         + (SELECT count(*) FROM (SELECT * FROM summed EXCEPT SELECT * FROM stored))`,
    ),
  };
  const found = Object.entries(problems).filter(([, n]) => Number(n) > 0);
  return found.length === 0 ? null : found.map(([what, n]) => `${n} ${what}`).join(', ');
}
