// Each client's unpaid amounts by due date, kept by the writes that change a balance.
import { sql } from 'kysely';
import { addDays } from '../../shared/ledger-schema.ts';
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

/** Changes to an operator's sums by (due date, previous date), applied in key order. */
class OwnerDuesChanges {
  private readonly changes = new Map<string, { amount: bigint; clients: bigint }>();

  add(dueOn: string, prev: string | null, amount: bigint, clients: bigint): void {
    const key = `${dueOn}|${prev ?? ''}`;
    const change = this.changes.get(key) ?? { amount: 0n, clients: 0n };
    change.amount += amount;
    change.clients += clients;
    this.changes.set(key, change);
  }

  /**
   * Writes them in one statement, in key order (every write of an operator takes its totals
   * row first, so these rows are never locked in two orders at once). A pair no client has any
   * more stays at zero until the purge job drops it: deleting it here cost a statement per
   * settled date on every payment.
   */
  async apply(trx: WriteTransaction, ownerId: string): Promise<void> {
    const rows = [...this.changes.entries()]
      .filter(([, change]) => change.amount !== 0n || change.clients !== 0n)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, change]) => {
        const [dueOn = '', prev = ''] = key.split('|');
        return sql`(${ownerId}, ${dueOn}, ${prev}, ${change.amount}, ${change.clients})`;
      });
    if (rows.length === 0) return;
    await sql`INSERT INTO owner_dues (owner_id, due_on, prev_due_on, amount_paise, clients)
      VALUES ${sql.join(rows)}
      ON CONFLICT (owner_id, due_on, prev_due_on) DO UPDATE SET
        amount_paise = owner_dues.amount_paise + excluded.amount_paise,
        clients = owner_dues.clients + excluded.clients`.execute(trx);
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
  },
): Promise<DueState> {
  const difference = owed(change.after) - owed(change.before);
  const sums = new OwnerDuesChanges();
  let { oldestDueOn, latestDueOn } = change.current;
  if (difference > 0n) {
    await addUnpaid(trx, change.ownerId, change.clientId, change.dueOn, difference, sums);
    if (oldestDueOn === null || change.dueOn < oldestDueOn) oldestDueOn = change.dueOn;
    if (latestDueOn === null || change.dueOn > latestDueOn) latestDueOn = change.dueOn;
  }
  if (difference < 0n) {
    oldestDueOn = await settleOldest(trx, change.clientId, -difference, sums);
    if (oldestDueOn === null) latestDueOn = null;
  }
  await sums.apply(trx, change.ownerId);
  if (oldestDueOn !== change.current.oldestDueOn || latestDueOn !== change.current.latestDueOn) {
    await sql`UPDATE clients SET oldest_due_on = ${oldestDueOn}, latest_due_on = ${latestDueOn}
      WHERE id = ${change.clientId}`.execute(trx);
  }
  return {
    oldestDueOn,
    latestDueOn,
    overduePaise: await overdueOn(trx, change.clientId, change.today, {
      oldestDueOn,
      latestDueOn,
      owedPaise: owed(change.after),
    }),
  };
}

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
  const { rows } = await sql<{ overdue: DbInteger | null }>`SELECT SUM(amount_paise) AS overdue
    FROM dues WHERE client_id = ${clientId} AND due_on < ${today}`.execute(trx);
  const sum = rows[0]?.overdue;
  return sum === null || sum === undefined ? 0n : exactInteger(sum);
}

async function addUnpaid(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
  dueOn: string,
  amount: bigint,
  sums: OwnerDuesChanges,
): Promise<void> {
  const { rows: same } = await sql<DueRow>`SELECT due_on, amount_paise, prev_due_on FROM dues
    WHERE client_id = ${clientId} AND due_on = ${dueOn}`.execute(trx);
  const existing = same[0];
  if (existing) {
    await sql`UPDATE dues SET amount_paise = amount_paise + ${amount}
      WHERE client_id = ${clientId} AND due_on = ${dueOn}`.execute(trx);
    sums.add(dueOn, existing.prev_due_on, amount, 0n);
    return;
  }
  const { rows: around } = await sql<DueRow & { side: string }>`
    SELECT * FROM (SELECT 'before' AS side, due_on, amount_paise, prev_due_on FROM dues
      WHERE client_id = ${clientId} AND due_on < ${dueOn} ORDER BY due_on DESC LIMIT 1) b
    UNION ALL
    SELECT * FROM (SELECT 'after' AS side, due_on, amount_paise, prev_due_on FROM dues
      WHERE client_id = ${clientId} AND due_on > ${dueOn} ORDER BY due_on LIMIT 1) a`.execute(trx);
  const prev = around.find((row) => row.side === 'before')?.due_on ?? null;
  const next = around.find((row) => row.side === 'after');
  await sql`INSERT INTO dues (client_id, due_on, owner_id, amount_paise, prev_due_on)
    VALUES (${clientId}, ${dueOn}, ${ownerId}, ${amount}, ${prev})`.execute(trx);
  sums.add(dueOn, prev, amount, 1n);
  if (next) {
    // Put in before a later one (a charge due earlier than what is already unpaid).
    const nextAmount = exactInteger(next.amount_paise);
    await sql`UPDATE dues SET prev_due_on = ${dueOn}
      WHERE client_id = ${clientId} AND due_on = ${next.due_on}`.execute(trx);
    sums.add(next.due_on, next.prev_due_on, -nextAmount, -1n);
    sums.add(next.due_on, dueOn, nextAmount, 1n);
  }
}

/** Unpaid rows read at a time while settling: most payments settle one or two. */
const SETTLE_BATCH = 8;

/** Settles `amount` oldest due first; answers the due date of the oldest left unpaid, or null. */
async function settleOldest(
  trx: WriteTransaction,
  clientId: string,
  amount: bigint,
  sums: OwnerDuesChanges,
): Promise<string | null> {
  let left = amount;
  let oldestLeft: string | null = null;
  let lastGone: string | null = null;
  // The first row left unpaid, when it is not touched otherwise: it becomes the oldest.
  let newOldest: DueRow | undefined;
  let after = '';
  reading: for (;;) {
    const { rows } = await sql<DueRow>`SELECT due_on, amount_paise, prev_due_on FROM dues
      WHERE client_id = ${clientId} AND due_on > ${after}
      ORDER BY due_on LIMIT ${SETTLE_BATCH}`.execute(trx);
    if (rows.length === 0) {
      if (left > 0n) throw new Error(`Unpaid amounts of ${clientId} fall short of its balance`);
      break;
    }
    for (const row of rows) {
      if (left === 0n) {
        newOldest = row;
        break reading;
      }
      const rowAmount = exactInteger(row.amount_paise);
      sums.add(row.due_on, row.prev_due_on, -rowAmount, -1n);
      if (rowAmount <= left) {
        left -= rowAmount;
        lastGone = row.due_on;
        continue;
      }
      // Paid in part: what is left of it is now the oldest unpaid amount.
      await sql`UPDATE dues SET amount_paise = amount_paise - ${left}, prev_due_on = NULL
        WHERE client_id = ${clientId} AND due_on = ${row.due_on}`.execute(trx);
      sums.add(row.due_on, null, rowAmount - left, 1n);
      oldestLeft = row.due_on;
      left = 0n;
      break reading;
    }
    // A short batch was all there was.
    if (left === 0n && rows.length < SETTLE_BATCH) break;
    after = rows[rows.length - 1]?.due_on ?? after;
  }
  if (lastGone !== null) {
    await sql`DELETE FROM dues WHERE client_id = ${clientId} AND due_on <= ${lastGone}`.execute(
      trx,
    );
  }
  if (newOldest) oldestLeft = newOldest.due_on;
  if (newOldest && newOldest.prev_due_on !== null) {
    const amountLeft = exactInteger(newOldest.amount_paise);
    await sql`UPDATE dues SET prev_due_on = NULL
      WHERE client_id = ${clientId} AND due_on = ${newOldest.due_on}`.execute(trx);
    sums.add(newOldest.due_on, newOldest.prev_due_on, -amountLeft, -1n);
    sums.add(newOldest.due_on, null, amountLeft, 1n);
  }
  return oldestLeft;
}

/** Takes a client's unpaid amounts out of its operator's sums and drops them (a delete). */
export async function dropUnpaid(
  trx: WriteTransaction,
  ownerId: string,
  clientId: string,
): Promise<void> {
  const { rows } = await sql<DueRow>`SELECT due_on, amount_paise, prev_due_on FROM dues
    WHERE client_id = ${clientId}`.execute(trx);
  if (rows.length === 0) return;
  const sums = new OwnerDuesChanges();
  for (const row of rows)
    sums.add(row.due_on, row.prev_due_on, -exactInteger(row.amount_paise), -1n);
  await sql`DELETE FROM dues WHERE client_id = ${clientId}`.execute(trx);
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
