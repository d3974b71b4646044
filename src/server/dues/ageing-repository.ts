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
import type { DatabaseReader } from '../db/reader.ts';

type Edges = { ownerId: string; today: string; d30: string; d60: string; d90: string };

/** The bucket (0 current … 4 over 90 days) of a due-date column, in SQL. */
function bucketSql(column: string, p: Edges) {
  const c = sql.raw(column);
  return sql`CASE WHEN ${c} >= ${p.today} THEN 0 WHEN ${c} >= ${p.d30} THEN 1
    WHEN ${c} >= ${p.d60} THEN 2 WHEN ${c} >= ${p.d90} THEN 3 ELSE 4 END`;
}

/**
 * Each bucket's amount, and its clients: a client counts once in a bucket, by its oldest
 * unpaid amount there, the one whose previous unpaid date (if any) is in an older bucket.
 */
const ageingQuery = compiledQuery(
  'ageing',
  (_db, p: Edges) =>
    sql<{ bucket: DbInteger; amount: DbInteger; clients: DbInteger }>`
    SELECT bucket, SUM(amount_paise) AS amount,
      SUM(CASE WHEN prev_bucket IS NULL OR prev_bucket <> bucket THEN clients ELSE 0 END) AS clients
    FROM (SELECT ${bucketSql('due_on', p)} AS bucket,
        CASE WHEN prev_due_on = '' THEN NULL ELSE ${bucketSql('prev_due_on', p)} END AS prev_bucket,
        amount_paise, clients
      FROM owner_dues WHERE owner_id = ${p.ownerId}) x
    GROUP BY bucket`,
);

function edgesOf(ownerId: string, today: string): Edges {
  return {
    ownerId,
    today,
    d30: addDays(today, -30),
    d60: addDays(today, -60),
    d90: addDays(today, -90),
  };
}

export async function ageingOf(
  reader: DatabaseReader,
  ownerId: string,
  today: string,
): Promise<Ageing> {
  const rows = await ageingQuery(reader.db, edgesOf(ownerId, today));
  const byBucket = new Map(rows.map((row) => [Number(row.bucket), row]));
  let overdue = 0n;
  const buckets = AGEING_BUCKETS.map((key, index) => {
    const row = byBucket.get(index);
    const amount = row ? exactInteger(row.amount) : 0n;
    if (index > 0) overdue += amount;
    return {
      key,
      amount: formatAmount(amount),
      clients: row ? Number(exactInteger(row.clients)) : 0,
    };
  });
  return { today, totalOverdue: formatAmount(overdue), buckets };
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
