// The ageing of what is owed: from each operator's sums by due date, never from the ledger.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'kysely';
import { neutraliseFormula } from '../../shared/client-csv.ts';
import { AGEING_BUCKETS, type Ageing, ageingBucketOf } from '../../shared/dues-schema.ts';
import { addDays } from '../../shared/ledger-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import { runAsLongWork } from '../db/deadline.ts';
import { type DbInteger, exactInteger } from '../db/integers.ts';
import { type DatabaseReader, readTogether } from '../db/reader.ts';

type Edges = { ownerId: string; today: string; d30: string; d60: string; d90: string };

function edgesOf(ownerId: string, today: string): Edges {
  return {
    ownerId,
    today,
    d30: addDays(today, -30),
    d60: addDays(today, -60),
    d90: addDays(today, -90),
  };
}

/**
 * One bucket of due dates, from `from` (null: the oldest) to before `to` (null: the latest):
 * its amount and its clients, from one range of the sums' key. A client counts once in a
 * bucket, by its oldest unpaid amount there: the one whose previous unpaid date is older than
 * the bucket ('' when it has none, which sorts before every date).
 */
function bucketSql(bucket: number, ownerId: string, from: string | null, to: string | null) {
  const after = from === null ? sql`` : sql`AND due_on >= ${from}`;
  const before = to === null ? sql`` : sql`AND due_on < ${to}`;
  const first = from === null ? sql`prev_due_on = ''` : sql`prev_due_on < ${from}`;
  return sql`SELECT ${sql.lit(bucket)} AS bucket, SUM(amount_paise) AS amount,
      SUM(CASE WHEN ${first} THEN clients ELSE 0 END) AS clients
    FROM owner_dues WHERE owner_id = ${ownerId} ${after} ${before}`;
}

interface AgeingRow {
  version: DbInteger | null;
  bucket: DbInteger;
  amount: DbInteger | null;
  clients: DbInteger | null;
}

/**
 * The ageing and the version of the sums it was read from, in one statement (one snapshot on
 * either database): a row per bucket, the version null when the operator has no totals row.
 */
function ageingQuery(p: Edges) {
  const buckets = [
    bucketSql(0, p.ownerId, p.today, null),
    bucketSql(1, p.ownerId, p.d30, p.today),
    bucketSql(2, p.ownerId, p.d60, p.d30),
    bucketSql(3, p.ownerId, p.d90, p.d60),
    bucketSql(4, p.ownerId, null, p.d90),
  ];
  return sql<AgeingRow>`SELECT
      (SELECT dues_version FROM owner_totals WHERE owner_id = ${p.ownerId}) AS version,
      s.bucket, s.amount, s.clients
    FROM (${sql.join(buckets, sql` UNION ALL `)}) s`;
}

const duesVersionQuery = compiledQuery('dues-version', (db, p: { ownerId: string }) =>
  db.selectFrom('owner_totals').select('dues_version').where('owner_id', '=', p.ownerId),
);

function ageingFrom(rows: readonly AgeingRow[], today: string): Ageing {
  const byBucket = new Map(rows.map((row) => [Number(row.bucket), row]));
  let overdue = 0n;
  const buckets = AGEING_BUCKETS.map((key, index) => {
    const row = byBucket.get(index);
    const amount = row?.amount == null ? 0n : exactInteger(row.amount);
    if (index > 0) overdue += amount;
    return {
      key,
      amount: formatAmount(amount),
      clients: row?.clients == null ? 0 : Number(exactInteger(row.clients)),
    };
  });
  return { today, totalOverdue: formatAmount(overdue), buckets };
}

/** An ageing as read, with the version of the sums it was read from (null: no totals row). */
interface ReadAgeing {
  ageing: Ageing;
  version: bigint | null;
}

/** Reads the ageing from the sums (on SQLite's read workers: a few thousand rows). */
async function readAgeing(reader: DatabaseReader, ownerId: string, today: string) {
  const [rows] = await readTogether<[AgeingRow[]]>(reader, [ageingQuery(edgesOf(ownerId, today))]);
  const version = rows[0]?.version;
  return {
    ageing: ageingFrom(rows, today),
    version: version === undefined || version === null ? null : exactInteger(version),
  } satisfies ReadAgeing;
}

export type AgeingReader = (ownerId: string, today: string) => Promise<Ageing>;

/**
 * The ageing, kept per app instance: the last one read for each operator is answered again
 * while its day and the version of its sums hold, for one indexed read of the version. Every
 * write that changes the sums raises the version in its own transaction, in the database, so
 * a write through any instance is seen by every other at its next request; the day is part of
 * the key because the buckets move with the calendar. Requests that miss together share one
 * read (docs/decisions/0040-ageing-kept-per-version.md).
 */
export function keptAgeing(reader: DatabaseReader): AgeingReader {
  const kept = new Map<string, { today: string; version: bigint; ageing: Ageing }>();
  const reading = new Map<string, Promise<ReadAgeing>>();
  return async (ownerId, today) => {
    const [row] = await duesVersionQuery(reader.db, { ownerId });
    const version = row ? exactInteger(row.dues_version) : null;
    const last = kept.get(ownerId);
    if (version !== null && last?.today === today && last.version === version) {
      return last.ageing;
    }
    const key = `${ownerId}|${today}|${version}`;
    let pending = reading.get(key);
    if (!pending) {
      pending = readAgeing(reader, ownerId, today).finally(() => reading.delete(key));
      reading.set(key, pending);
    }
    const read = await pending;
    const current = kept.get(ownerId);
    // Never replace what was kept by an older read (a slower request, or yesterday's).
    const newer =
      !current ||
      current.today < today ||
      (current.today === today && read.version !== null && read.version > current.version);
    if (read.version !== null && newer) {
      kept.set(ownerId, { today, version: read.version, ageing: read.ageing });
    }
    return read.ageing;
  };
}

export const AGEING_CSV_HEADERS = [
  'First Name',
  'Last Name',
  'Phone',
  'Not yet due',
  '1-30 days',
  '31-60 days',
  '61-90 days',
  'Over 90 days',
  'Total',
] as const;

/** Clients read at a time for the CSV. */
const AGEING_EXPORT_PAGE = 1000;

interface OwingClientRow {
  id: string;
  seq: DbInteger;
  fname: string;
  lname: string;
  phone_display: string | null;
  phone: string;
  oldest_due_on: string;
}

/**
 * The ageing per client as CSV: every client owing anything, most overdue first (oldest due
 * date), a page of clients at a time with their unpaid amounts, sent as each page is read.
 */
export function ageingCsv(reader: DatabaseReader, ownerId: string, today: string) {
  async function* pages() {
    yield stringify([[...AGEING_CSV_HEADERS]]);
    for (let after: { due: string; seq: DbInteger } | null = null; ; ) {
      const cursor: { due: string; seq: DbInteger } | null = after;
      const clients: OwingClientRow[] = await runAsLongWork(async () => {
        const { rows } = await sql<OwingClientRow>`SELECT id, seq, fname, lname, phone_display,
            phone, oldest_due_on FROM clients
          WHERE owner_id = ${ownerId} AND oldest_due_on IS NOT NULL
            ${cursor ? sql`AND (oldest_due_on, seq) > (${cursor.due}, ${cursor.seq})` : sql``}
          ORDER BY oldest_due_on, seq LIMIT ${AGEING_EXPORT_PAGE}`.execute(reader.db);
        return rows;
      });
      if (clients.length === 0) return;
      const dues = await runAsLongWork(async () => {
        const { rows } = await sql<{
          client_id: string;
          due_on: string;
          amount_paise: DbInteger;
        }>`SELECT client_id, due_on, amount_paise FROM dues
          WHERE client_id IN (${sql.join(clients.map((client) => client.id))})`.execute(reader.db);
        return rows;
      });
      const sums = new Map<string, bigint[]>();
      for (const due of dues) {
        const row = sums.get(due.client_id) ?? AGEING_BUCKETS.map(() => 0n);
        const index = AGEING_BUCKETS.indexOf(ageingBucketOf(due.due_on, today));
        row[index] = (row[index] ?? 0n) + exactInteger(due.amount_paise);
        sums.set(due.client_id, row);
      }
      yield stringify(
        clients.map((client) => {
          const amounts = sums.get(client.id) ?? AGEING_BUCKETS.map(() => 0n);
          const total = amounts.reduce((sum, amount) => sum + amount, 0n);
          return [
            neutraliseFormula(client.fname),
            neutraliseFormula(client.lname),
            neutraliseFormula(client.phone_display ?? client.phone),
            ...amounts.map(formatAmount),
            formatAmount(total),
          ];
        }),
      );
      const last: OwingClientRow | undefined = clients[clients.length - 1];
      if (!last || clients.length < AGEING_EXPORT_PAGE) return;
      after = { due: last.oldest_due_on, seq: last.seq };
    }
  }
  return Readable.from(pages(), { objectMode: false });
}
