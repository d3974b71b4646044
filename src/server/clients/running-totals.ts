import { sql } from 'kysely';
import type { BalanceFilter } from '../../shared/client-schema.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import type { WriteTransaction } from '../db/database.ts';
import { exactInteger } from '../db/integers.ts';
import { toTotals } from './client-rows.ts';

export const ownerTotalsQuery = compiledQuery('owner-totals', (db, p: { ownerId: string }) =>
  db
    .selectFrom('owner_totals')
    .select([
      'client_count',
      'total_paise',
      'owing_count',
      'owing_paise',
      'credit_count',
      'credit_paise',
      'list_version',
    ])
    .where('owner_id', '=', p.ownerId),
);

export type OwnerTotalsRow = Awaited<ReturnType<typeof ownerTotalsQuery>>[number];

/** The running totals of every client, or of those a balance filter keeps. */
export function totalsOf(row: OwnerTotalsRow | undefined, filter: BalanceFilter | undefined) {
  if (!row) return toTotals(undefined);
  switch (filter) {
    case 'owing':
      return toTotals({ count: row.owing_count, total: row.owing_paise });
    case 'credit':
      return toTotals({ count: row.credit_count, total: row.credit_paise });
    case 'settled': {
      const settled =
        exactInteger(row.client_count) -
        exactInteger(row.owing_count) -
        exactInteger(row.credit_count);
      return toTotals({ count: settled, total: 0n });
    }
    default:
      return toTotals({ count: row.client_count, total: row.total_paise });
  }
}

/** What one client adds to its operator's running totals. */
interface TotalsDelta {
  count: bigint;
  paise: bigint;
  owingCount: bigint;
  owingPaise: bigint;
  creditCount: bigint;
  creditPaise: bigint;
}

function contribution(balance: bigint | null): TotalsDelta {
  if (balance === null) {
    return {
      count: 0n,
      paise: 0n,
      owingCount: 0n,
      owingPaise: 0n,
      creditCount: 0n,
      creditPaise: 0n,
    };
  }
  return {
    count: 1n,
    paise: balance,
    owingCount: balance > 0n ? 1n : 0n,
    owingPaise: balance > 0n ? balance : 0n,
    creditCount: balance < 0n ? 1n : 0n,
    creditPaise: balance < 0n ? balance : 0n,
  };
}

/**
 * The totals row's upsert; with `raisingDues`, it raises the operator's version of its sums by
 * due date too (see `adjustTotals`). Two compiled statements, one way of writing them.
 */
function adjustTotalsStatement(key: string, raisingDues: boolean) {
  return compiledQuery(key, (db, p: TotalsDelta & { ownerId: string }) =>
    db
      .insertInto('owner_totals')
      .values({
        owner_id: p.ownerId,
        client_count: p.count,
        total_paise: p.paise,
        owing_count: p.owingCount,
        owing_paise: p.owingPaise,
        credit_count: p.creditCount,
        credit_paise: p.creditPaise,
        ...(raisingDues ? { dues_version: 1n } : {}),
      })
      .onConflict((oc) =>
        oc.column('owner_id').doUpdateSet({
          client_count: sql`owner_totals.client_count + ${p.count}`,
          total_paise: sql`owner_totals.total_paise + ${p.paise}`,
          owing_count: sql`owner_totals.owing_count + ${p.owingCount}`,
          owing_paise: sql`owner_totals.owing_paise + ${p.owingPaise}`,
          credit_count: sql`owner_totals.credit_count + ${p.creditCount}`,
          credit_paise: sql`owner_totals.credit_paise + ${p.creditPaise}`,
          ...(raisingDues ? { dues_version: sql`owner_totals.dues_version + 1` } : {}),
        }),
      ),
  );
}

const adjustTotalsQuery = adjustTotalsStatement('adjust-owner-totals', false);
const adjustTotalsRaisingDuesQuery = adjustTotalsStatement(
  'adjust-owner-totals-raising-dues',
  true,
);

const addDailyDeltaQuery = compiledQuery(
  'add-daily-delta',
  (db, p: { ownerId: string; on: string; delta: bigint; collected: bigint }) =>
    db
      .insertInto('owner_daily_deltas')
      .values({
        owner_id: p.ownerId,
        on_date: p.on,
        delta_paise: p.delta,
        collected_paise: p.collected,
      })
      .onConflict((oc) =>
        oc.columns(['owner_id', 'on_date']).doUpdateSet({
          delta_paise: sql`owner_daily_deltas.delta_paise + ${p.delta}`,
          collected_paise: sql`owner_daily_deltas.collected_paise + ${p.collected}`,
        }),
      ),
);

/**
 * Moves an operator's running totals from a client's old balance to its new one (null: the
 * client did not exist, or no longer does), in the caller's transaction, and books the change
 * of the total owed on the day it happened (`on`): the history of the total is the sum of
 * these, so every change of the total goes through here. A payment books what it collected
 * that day too (`collected`: "collected this month"). Answers whether it raised the
 * operator's version of its sums by due date.
 */
export async function adjustTotals(
  trx: WriteTransaction,
  ownerId: string,
  before: bigint | null,
  after: bigint | null,
  on: string,
  collected = 0n,
  /**
   * The caller goes on to change the operator's sums by due date when what the client owes
   * changes (`moveUnpaid` told so): the version of them is raised here, in the statement that
   * writes the totals row anyway, rather than in one of its own.
   */
  raisesDuesVersion = false,
): Promise<boolean> {
  const was = contribution(before);
  const is = contribution(after);
  const delta: TotalsDelta = {
    count: is.count - was.count,
    paise: is.paise - was.paise,
    owingCount: is.owingCount - was.owingCount,
    owingPaise: is.owingPaise - was.owingPaise,
    creditCount: is.creditCount - was.creditCount,
    creditPaise: is.creditPaise - was.creditPaise,
  };
  if (Object.values(delta).every((value) => value === 0n) && collected === 0n) return false;
  const raising = raisesDuesVersion && delta.owingPaise !== 0n;
  await (raising ? adjustTotalsRaisingDuesQuery : adjustTotalsQuery)(trx, { ownerId, ...delta });
  if (delta.paise !== 0n || collected !== 0n) {
    await addDailyDeltaQuery(trx, { ownerId, on, delta: delta.paise, collected });
  }
  return raising;
}

/**
 * Takes the operator's totals row, which every write that moves a total takes: a write that
 * first reads the book to decide what to store (an import leaving out duplicates) then waits
 * on PostgreSQL for any such write before it, and reads what that one stored.
 */
export async function lockTotals(trx: WriteTransaction, ownerId: string): Promise<void> {
  const nothing = contribution(null);
  await adjustTotalsQuery(trx, { ownerId, ...nothing });
}

/** Books clients that did not exist before (an import) on the totals in one update. */
export async function addNewClientsToTotals(
  trx: WriteTransaction,
  ownerId: string,
  balances: readonly bigint[],
  on: string,
): Promise<void> {
  const delta = contribution(null);
  for (const balance of balances) {
    const one = contribution(balance);
    for (const key of Object.keys(delta) as (keyof TotalsDelta)[]) delta[key] += one[key];
  }
  if (delta.count === 0n) return;
  await adjustTotalsQuery(trx, { ownerId, ...delta });
  if (delta.paise !== 0n) {
    await addDailyDeltaQuery(trx, { ownerId, on, delta: delta.paise, collected: 0n });
  }
}
