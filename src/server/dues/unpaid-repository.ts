// Each client's unpaid amounts by due date, kept by the writes that change a balance.
import { sql } from 'kysely';
import { addDays } from '../../shared/ledger-schema.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import type { WriteTransaction } from '../db/database.ts';
import { type DbInteger, exactInteger } from '../db/integers.ts';

/**
 * What a client has unpaid after a write: the due dates of its oldest and latest unpaid
 * amounts, and what of it is overdue on `today` (docs/decisions/0036-unpaid-amounts.md).
 */
export interface DueState {
  oldestDueOn: string | null;
  latestDueOn: string | null;
  overduePaise: bigint;
}

interface DueRow {
  due_on: string;
  amount_paise: DbInteger;
  prev_due_on: string | null;
}

/** The operator's sums by due date changed: an ageing answered before no longer holds. */
const raiseDuesVersionQuery = compiledQuery(
  'raise-dues-version',
  (_db, p: { ownerId: string }) =>
    // A row, should the operator have none yet (every write that moves a balance makes one).
    sql`INSERT INTO owner_totals (owner_id, client_count, total_paise, dues_version)
    VALUES (${p.ownerId}, 0, 0, 1)
    ON CONFLICT (owner_id) DO UPDATE SET dues_version = owner_totals.dues_version + 1`,
);

/** Most writes change one to four sums; more than this go in several statements. */
const SUMS_PER_STATEMENT = 8;

/** The upsert of `count` sums, built once per count (the statements are the hottest here). */
const upsertSumsQueries = Array.from({ length: SUMS_PER_STATEMENT }, (_, index) =>
  compiledQuery(`upsert-owner-dues-${index + 1}`, (_db, p: Record<string, unknown>) => {
    const rows = Array.from(
      { length: index + 1 },
      (_, i) => sql`(${p.ownerId}, ${p[`due${i}`]}, ${p[`prev${i}`]}, ${p[`amount${i}`]},
        ${p[`clients${i}`]})`,
    );
    return sql`INSERT INTO owner_dues (owner_id, due_on, prev_due_on, amount_paise, clients)
      VALUES ${sql.join(rows)}
      ON CONFLICT (owner_id, due_on, prev_due_on) DO UPDATE SET
        amount_paise = owner_dues.amount_paise + excluded.amount_paise,
        clients = owner_dues.clients + excluded.clients`;
  }),
);

/** Changes to an operator's sums by (due date, previous date), applied in key order. */
export class OwnerDuesChanges {
  private readonly changes = new Map<string, { amount: bigint; clients: bigint }>();

  add(dueOn: string, prev: string | null, amount: bigint, clients: bigint): void {
    const key = `${dueOn}|${prev ?? ''}`;
    const change = this.changes.get(key) ?? { amount: 0n, clients: 0n };
    change.amount += amount;
    change.clients += clients;
    this.changes.set(key, change);
  }

  /**
   * Writes them in key order (every write of an operator takes its totals row first, so these
   * rows are never locked in two orders at once), and raises the operator's version of them
   * (the ageing's cache key) in the same transaction, unless the caller already did
   * (`versionRaised`). A pair no client has any more stays at
   * zero until the purge job drops it: deleting it here cost a statement per settled date on
   * every payment.
   */
  async apply(trx: WriteTransaction, ownerId: string, versionRaised = false): Promise<void> {
    const changed = [...this.changes.entries()]
      .filter(([, change]) => change.amount !== 0n || change.clients !== 0n)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (changed.length === 0) return;
    if (!versionRaised) await raiseDuesVersionQuery(trx, { ownerId });
    for (let start = 0; start < changed.length; start += SUMS_PER_STATEMENT) {
      const part = changed.slice(start, start + SUMS_PER_STATEMENT);
      const params: Record<string, unknown> = { ownerId };
      part.forEach(([key, change], i) => {
        const [dueOn = '', prev = ''] = key.split('|');
        params[`due${i}`] = dueOn;
        params[`prev${i}`] = prev;
        params[`amount${i}`] = change.amount;
        params[`clients${i}`] = change.clients;
      });
      const upsert = upsertSumsQueries[part.length - 1];
      if (!upsert) throw new Error(`no statement for ${part.length} sums`);
      await upsert(trx, params);
    }
  }
}

/** Drops the sums no client has any more (the purge job, in a transaction of its own). */
export async function dropEmptyDueSums(trx: WriteTransaction): Promise<void> {
  await sql`DELETE FROM owner_dues WHERE clients = 0`.execute(trx);
}

/** What is owed, or 0 for a client in credit (or one that does not exist: null). */
function owed(balance: bigint | null): bigint {
  return balance !== null && balance > 0n ? balance : 0n;
}

const setDueDatesQuery = compiledQuery(
  'set-client-due-dates',
  (_db, p: { clientId: string; oldestDueOn: string | null; latestDueOn: string | null }) =>
    sql`UPDATE clients SET oldest_due_on = ${p.oldestDueOn}, latest_due_on = ${p.latestDueOn}
      WHERE id = ${p.clientId}`,
);

/**
 * Moves a client's unpaid amounts from one balance to the next, in the caller's transaction
 * (after the client's row and the operator's totals are locked): what the write added beyond
 * the credit the client held is due on `dueOn`; what it took off settles the oldest due first.
 * The client row's oldest and latest due dates follow. Answers the client's state after it.
 */
export async function moveUnpaid(
  trx: WriteTransaction,
  change: {
    ownerId: string;
    clientId: string;
    before: bigint | null;
    after: bigint | null;
    dueOn: string;
    today: string;
    /** The client row's due dates before the write. */
    current: { oldestDueOn: string | null; latestDueOn: string | null };
    /**
     * The write raised the operator's version of its sums already (`adjustTotals`, which does
     * whenever what the client owes changes: exactly when the sums here change).
     */
    duesVersionRaised?: boolean;
  },
): Promise<DueState> {
  const difference = owed(change.after) - owed(change.before);
  const sums = new OwnerDuesChanges();
  let { oldestDueOn, latestDueOn } = change.current;
  // Every unpaid amount left, when the write read them all: the overdue then needs no query.
  let left: Unpaid[] | null = null;
  if (difference > 0n) {
    await addUnpaid(trx, change.ownerId, change.clientId, change.dueOn, difference, sums);
    if (oldestDueOn === null || change.dueOn < oldestDueOn) oldestDueOn = change.dueOn;
    if (latestDueOn === null || change.dueOn > latestDueOn) latestDueOn = change.dueOn;
  }
  if (difference < 0n) {
    const settled = await settleOldest(trx, change.clientId, -difference, sums);
    oldestDueOn = settled.left[0]?.dueOn ?? null;
    if (settled.complete) {
      left = settled.left;
      latestDueOn = left.at(-1)?.dueOn ?? null;
    } else if (oldestDueOn === null) latestDueOn = null;
  }
  await sums.apply(trx, change.ownerId, change.duesVersionRaised ?? false);
  if (oldestDueOn !== change.current.oldestDueOn || latestDueOn !== change.current.latestDueOn) {
    await setDueDatesQuery(trx, { clientId: change.clientId, oldestDueOn, latestDueOn });
  }
  const state = { oldestDueOn, latestDueOn, owedPaise: owed(change.after) };
  return {
    oldestDueOn,
    latestDueOn,
    overduePaise: left
      ? overdueOf(left, change.today)
      : await overdueOn(trx, change.clientId, change.today, state),
  };
}

/** An unpaid amount as the write left it. */
interface Unpaid {
  dueOn: string;
  paise: bigint;
}

function overdueOf(unpaid: readonly Unpaid[], today: string): bigint {
  let overdue = 0n;
  for (const amount of unpaid) if (amount.dueOn < today) overdue += amount.paise;
  return overdue;
}

const overdueSumQuery = compiledQuery(
  'client-overdue-sum',
  (_db, p: { clientId: string; today: string }) =>
    sql<{ overdue: DbInteger | null }>`SELECT SUM(amount_paise) AS overdue
      FROM dues WHERE client_id = ${p.clientId} AND due_on < ${p.today}`,
);

/**
 * What is overdue on `today`: from the due dates when all of it is past due or none is, else
 * the sum of the amounts due before it (a client with both).
 */
async function overdueOn(
  trx: WriteTransaction,
  clientId: string,
  today: string,
  state: { oldestDueOn: string | null; latestDueOn: string | null; owedPaise: bigint },
): Promise<bigint> {
  if (state.oldestDueOn === null || state.oldestDueOn >= today) return 0n;
  if (state.latestDueOn !== null && state.latestDueOn < today) return state.owedPaise;
  const [row] = await overdueSumQuery(trx, { clientId, today });
  const sum = row?.overdue;
  return sum === null || sum === undefined ? 0n : exactInteger(sum);
}

const dueOnQuery = compiledQuery(
  'due-on',
  (_db, p: { clientId: string; dueOn: string }) =>
    sql<DueRow>`SELECT due_on, amount_paise, prev_due_on FROM dues
    WHERE client_id = ${p.clientId} AND due_on = ${p.dueOn}`,
);

const addToDueQuery = compiledQuery(
  'add-to-due',
  (_db, p: { clientId: string; dueOn: string; amount: bigint }) =>
    sql`UPDATE dues SET amount_paise = amount_paise + ${p.amount}
      WHERE client_id = ${p.clientId} AND due_on = ${p.dueOn}`,
);

const duesAroundQuery = compiledQuery(
  'dues-around',
  (_db, p: { clientId: string; dueOn: string }) =>
    sql<DueRow & { side: string }>`
    SELECT * FROM (SELECT 'before' AS side, due_on, amount_paise, prev_due_on FROM dues
      WHERE client_id = ${p.clientId} AND due_on < ${p.dueOn} ORDER BY due_on DESC LIMIT 1) b
    UNION ALL
    SELECT * FROM (SELECT 'after' AS side, due_on, amount_paise, prev_due_on FROM dues
      WHERE client_id = ${p.clientId} AND due_on > ${p.dueOn} ORDER BY due_on LIMIT 1) a`,
);

const insertDueQuery = compiledQuery(
  'insert-due',
  (
    _db,
    p: { clientId: string; dueOn: string; ownerId: string; amount: bigint; prev: string | null },
  ) =>
    sql`INSERT INTO dues (client_id, due_on, owner_id, amount_paise, prev_due_on)
      VALUES (${p.clientId}, ${p.dueOn}, ${p.ownerId}, ${p.amount}, ${p.prev})`,
);

const setPrevDueQuery = compiledQuery(
  'set-prev-due',
  (_db, p: { clientId: string; dueOn: string; prev: string | null }) =>
    sql`UPDATE dues SET prev_due_on = ${p.prev}
      WHERE client_id = ${p.clientId} AND due_on = ${p.dueOn}`,
);

async function addUnpaid(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  dueOn: string,
  amount: bigint,
  sums: OwnerDuesChanges,
): Promise<void> {
  const [existing] = await dueOnQuery(trx, { clientId, dueOn });
  if (existing) {
    await addToDueQuery(trx, { clientId, dueOn, amount });
    sums.add(dueOn, existing.prev_due_on, amount, 0n);
    return;
  }
  const around = await duesAroundQuery(trx, { clientId, dueOn });
  const prev = around.find((row) => row.side === 'before')?.due_on ?? null;
  const next = around.find((row) => row.side === 'after');
  await insertDueQuery(trx, { clientId, dueOn, ownerId, amount, prev });
  sums.add(dueOn, prev, amount, 1n);
  if (next) {
    // Put in before a later one (a charge due earlier than what is already unpaid).
    const nextAmount = exactInteger(next.amount_paise);
    await setPrevDueQuery(trx, { clientId, dueOn: next.due_on, prev: dueOn });
    sums.add(next.due_on, next.prev_due_on, -nextAmount, -1n);
    sums.add(next.due_on, dueOn, nextAmount, 1n);
  }
}

/**
 * Unpaid rows read at a time while settling: a client's rows lie together (the table is its
 * key), so reading all of most clients' costs no more than reading two, and with all of them
 * known the overdue after the payment needs no query of its own.
 */
export const SETTLE_BATCH = 32;

const firstDuesQuery = compiledQuery(
  'first-dues',
  (_db, p: { clientId: string; after: string; limit: number }) =>
    sql<DueRow>`SELECT due_on, amount_paise, prev_due_on FROM dues
      WHERE client_id = ${p.clientId} AND due_on > ${p.after}
      ORDER BY due_on LIMIT ${p.limit}`,
);

const settlePartQuery = compiledQuery(
  'settle-part-of-due',
  (_db, p: { clientId: string; dueOn: string; paid: bigint }) =>
    sql`UPDATE dues SET amount_paise = amount_paise - ${p.paid}, prev_due_on = NULL
      WHERE client_id = ${p.clientId} AND due_on = ${p.dueOn}`,
);

const dropSettledQuery = compiledQuery(
  'drop-settled-dues',
  (_db, p: { clientId: string; through: string }) =>
    sql`DELETE FROM dues WHERE client_id = ${p.clientId} AND due_on <= ${p.through}`,
);

/**
 * Settles `amount` oldest due first. Answers what is left unpaid, oldest first: all of it
 * (`complete`) when the rows read were all the client had, else at least its oldest.
 */
async function settleOldest(
  trx: WriteTransaction,
  clientId: string,
  amount: bigint,
  sums: OwnerDuesChanges,
): Promise<{ left: Unpaid[]; complete: boolean }> {
  let owing = amount;
  let lastGone: string | null = null;
  const left: Unpaid[] = [];
  // The first row left whole: it becomes the oldest, with nothing unpaid before it.
  let newOldest: DueRow | undefined;
  let after = '';
  for (;;) {
    const rows = await firstDuesQuery(trx, { clientId, after, limit: SETTLE_BATCH });
    for (const row of rows) {
      const rowAmount = exactInteger(row.amount_paise);
      if (owing === 0n) {
        newOldest ??= left.length === 0 ? row : undefined;
        left.push({ dueOn: row.due_on, paise: rowAmount });
        continue;
      }
      sums.add(row.due_on, row.prev_due_on, -rowAmount, -1n);
      if (rowAmount <= owing) {
        owing -= rowAmount;
        lastGone = row.due_on;
        continue;
      }
      // Paid in part: what is left of it is now the oldest unpaid amount.
      await settlePartQuery(trx, { clientId, dueOn: row.due_on, paid: owing });
      sums.add(row.due_on, null, rowAmount - owing, 1n);
      left.push({ dueOn: row.due_on, paise: rowAmount - owing });
      owing = 0n;
    }
    const complete = rows.length < SETTLE_BATCH;
    if (complete && owing > 0n) {
      throw new Error(`Unpaid amounts of ${clientId} fall short of its balance`);
    }
    // Settled, and the oldest left is known (it may be the first row of the next batch).
    if (complete || (owing === 0n && left.length > 0)) {
      if (lastGone !== null) await dropSettledQuery(trx, { clientId, through: lastGone });
      if (newOldest && newOldest.prev_due_on !== null) {
        const amountLeft = exactInteger(newOldest.amount_paise);
        await setPrevDueQuery(trx, { clientId, dueOn: newOldest.due_on, prev: null });
        sums.add(newOldest.due_on, newOldest.prev_due_on, -amountLeft, -1n);
        sums.add(newOldest.due_on, null, amountLeft, 1n);
      }
      return { left, complete };
    }
    after = rows[rows.length - 1]?.due_on ?? after;
  }
}

const clientDuesQuery = compiledQuery(
  'client-dues',
  (_db, p: { clientId: string }) =>
    sql<DueRow>`SELECT due_on, amount_paise, prev_due_on FROM dues WHERE client_id = ${p.clientId}`,
);

const dropClientDuesQuery = compiledQuery(
  'drop-client-dues',
  (_db, p: { clientId: string }) => sql`DELETE FROM dues WHERE client_id = ${p.clientId}`,
);

/** Takes a client's unpaid amounts out of its operator's sums and drops them (a delete). */
export async function dropUnpaid(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
): Promise<void> {
  const rows = await clientDuesQuery(trx, { clientId });
  if (rows.length === 0) return;
  const sums = new OwnerDuesChanges();
  for (const row of rows)
    sums.add(row.due_on, row.prev_due_on, -exactInteger(row.amount_paise), -1n);
  await dropClientDuesQuery(trx, { clientId });
  await sums.apply(trx, ownerId);
}

/** An entry as a replay reads it: its signed amount and, for what it added, its due date. */
export interface ReplayedEntry {
  amountPaise: bigint;
  dueOn: string | null;
  on: string;
}

/**
 * Rebuilds a client's unpaid amounts from its entries in the order recorded (a restore), as
 * the writes built them one by one.
 */
export async function replayUnpaid(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  entries: readonly ReplayedEntry[],
  today: string,
): Promise<DueState> {
  await dropUnpaid(trx, ownerId, clientId);
  let balance = 0n;
  let state: DueState = { oldestDueOn: null, latestDueOn: null, overduePaise: 0n };
  for (const entry of entries) {
    const after = balance + entry.amountPaise;
    if (owed(after) !== owed(balance)) {
      state = await moveUnpaid(trx, {
        ownerId,
        clientId,
        before: balance,
        after,
        dueOn: entry.dueOn ?? entry.on,
        today,
        current: state,
      });
    }
    balance = after;
  }
  return state;
}

/** The day a charge recorded on `on` is due, by the operator's payment terms. */
export function dueByTerms(on: string, paymentTermsDays: number): string {
  return addDays(on, paymentTermsDays);
}
