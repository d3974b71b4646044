import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Client } from '../../shared/client-schema.ts';
import {
  addDays,
  type Entry,
  type EntryKind,
  type NewEntry,
  type Statement,
  type TotalsHistory,
} from '../../shared/ledger-schema.ts';
import { formatAmount, MAX_BALANCE_PAISE, paiseFromAmount } from '../../shared/money.ts';
import type { BookMember } from '../books/book-member.ts';
import {
  answerClient,
  CLIENT_COLUMNS,
  type ClientRow,
  isClientId,
  selectOwnedClient,
  toClient,
} from '../clients/client-rows.ts';
import { adjustTotals, ownerTotalsQuery } from '../clients/running-totals.ts';
import { paymentTermsOf } from '../collect/collection-settings-repository.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import type { WriteTransaction } from '../db/database.ts';
import { insertRows } from '../db/insert-rows.ts';
import { type DbInteger, exactInteger } from '../db/integers.ts';
import { type DatabaseReader, readTogether } from '../db/reader.ts';
import { markDealtWith, roundsPaidOn } from '../dues/collect-round.ts';
import { creditPromise } from '../dues/promises-repository.ts';
import { dueByTerms, moveUnpaid } from '../dues/unpaid-repository.ts';

interface EntryRow {
  seq: DbInteger;
  id: string;
  client_id: string;
  kind: string;
  amount_paise: DbInteger;
  balance_after_paise: DbInteger;
  note: string;
  on_date: string;
  created_at: string;
  created_by: string;
  created_by_email: string;
  due_on: string | null;
}

function toEntry(row: EntryRow): Entry {
  return {
    id: row.id,
    clientId: row.client_id,
    kind: row.kind as EntryKind,
    amount: formatAmount(exactInteger(row.amount_paise)),
    balanceAfter: formatAmount(exactInteger(row.balance_after_paise)),
    note: row.note,
    on: row.on_date,
    dueOn: row.due_on,
    createdAt: row.created_at,
    createdBy: { id: row.created_by, email: row.created_by_email },
  };
}

interface NewLedgerEntry {
  ownerId: string;
  clientId: string;
  kind: EntryKind;
  amountPaise: bigint;
  balanceAfterPaise: bigint;
  note: string;
  on: string;
  /** When what it adds is due; null for what takes from the balance. */
  dueOn: string | null;
  /** The operator who recorded it, with the e-mail the answer shows. */
  createdBy: { id: string; email: string };
}

const insertEntryQuery = compiledQuery(
  'insert-ledger-entry',
  (
    db,
    p: {
      id: string;
      ownerId: string;
      clientId: string;
      kind: string;
      amountPaise: bigint;
      balanceAfterPaise: bigint;
      note: string;
      on: string;
      createdAt: string;
      createdBy: string;
      dueOn: string | null;
    },
  ) =>
    db.insertInto('ledger_entries').values({
      id: p.id,
      owner_id: p.ownerId,
      client_id: p.clientId,
      kind: p.kind,
      amount_paise: p.amountPaise,
      balance_after_paise: p.balanceAfterPaise,
      note: p.note,
      on_date: p.on,
      created_at: p.createdAt,
      created_by: p.createdBy,
      due_on: p.dueOn,
    }),
);

interface BalanceChange {
  id: string;
  ownerId: string;
  delta: bigint;
  /** The entry's date: a payment's is the client's last payment when no later one is. */
  on: string;
  updatedAt: string;
}

/**
 * The client row's part of an entry, compiled once per kind (a payment also moves the last
 * payment's date): it answers nothing when the balance would leave the range, or when the
 * client is not the book's.
 */
function balanceChangeQuery(key: string, payment: boolean) {
  return compiledQuery(key, (db, p: BalanceChange) =>
    db
      .updateTable('clients')
      .set({
        balance_paise: sql`balance_paise + ${p.delta}`,
        version: sql`version + 1`,
        updated_at: p.updatedAt,
        ...(payment
          ? {
              last_payment_on: sql`CASE WHEN last_payment_on IS NULL OR last_payment_on < ${p.on}
                THEN ${p.on} ELSE last_payment_on END`,
            }
          : {}),
      })
      .where('id', '=', p.id)
      .where('owner_id', '=', p.ownerId)
      .where(
        sql<boolean>`balance_paise + ${p.delta} BETWEEN ${-MAX_BALANCE_PAISE} AND ${MAX_BALANCE_PAISE}`,
      )
      .returning(CLIENT_COLUMNS),
  );
}

const paymentOnClientQuery = balanceChangeQuery('record-payment-on-client', true);
const chargeOnClientQuery = balanceChangeQuery('record-charge-on-client', false);

/**
 * Appends an entry to a client's ledger, in the caller's transaction (the one that changes
 * the balance). Entries are never updated or deleted one by one.
 */
export async function appendEntry(trx: WriteTransaction, entry: NewLedgerEntry): Promise<Entry> {
  const row = {
    id: randomUUID(),
    ownerId: entry.ownerId,
    clientId: entry.clientId,
    kind: entry.kind,
    amountPaise: entry.amountPaise,
    balanceAfterPaise: entry.balanceAfterPaise,
    note: entry.note,
    on: entry.on,
    createdAt: new Date().toISOString(),
    createdBy: entry.createdBy.id,
    dueOn: entry.dueOn,
  };
  await insertEntryQuery(trx, row);
  return {
    id: row.id,
    clientId: row.clientId,
    kind: row.kind,
    amount: formatAmount(row.amountPaise),
    balanceAfter: formatAmount(row.balanceAfterPaise),
    note: row.note,
    on: row.on,
    dueOn: row.dueOn,
    createdAt: row.createdAt,
    // Exactly who, as the schema says: a member given here also carries their book.
    createdBy: { id: entry.createdBy.id, email: entry.createdBy.email },
  };
}

/** Many entries at once (an import's openings), a few hundred rows per statement. */
export async function insertEntries(
  trx: WriteTransaction,
  entries: readonly NewLedgerEntry[],
): Promise<void> {
  const createdAt = new Date().toISOString();
  const rows = entries.map((entry) => ({
    id: randomUUID(),
    owner_id: entry.ownerId,
    client_id: entry.clientId,
    kind: entry.kind,
    amount_paise: entry.amountPaise,
    balance_after_paise: entry.balanceAfterPaise,
    note: entry.note,
    on_date: entry.on,
    created_at: createdAt,
    created_by: entry.createdBy.id,
    due_on: entry.dueOn,
  }));
  await insertRows(trx, 'ledger_entries', rows);
}

type RecordOutcome =
  | { kind: 'recorded'; entry: Entry; client: Client }
  | { kind: 'not-found' }
  | { kind: 'out-of-range' };

/** A charge or payment to record: its date, and for a charge the day it is due if not by terms. */
export type EntryToRecord = NewEntry & { on: string };

/**
 * Records a charge or a payment: the balance moves by the amount in one atomic update (so
 * entries recorded at the same moment add up in any order, without a version), the entry
 * records the balance it left, and the running totals, the day's change of the total, the
 * client's unpaid amounts, its promise and the day's round follow, all in one transaction.
 */
export async function recordEntry(
  trx: WriteTransaction,
  operator: BookMember,
  clientId: string,
  input: EntryToRecord,
  today: string,
): Promise<RecordOutcome> {
  // Not an id (PostgreSQL would refuse one with a NUL byte in it): no such client.
  if (!isClientId(clientId)) return { kind: 'not-found' };
  const amount = paiseFromAmount(input.amount);
  const payment = input.kind === 'payment';
  const delta = payment ? -amount : amount;
  const [updated] = await (payment ? paymentOnClientQuery : chargeOnClientQuery)(trx, {
    id: clientId,
    ownerId: operator.bookId,
    delta,
    on: input.on,
    updatedAt: new Date().toISOString(),
  });
  if (!updated) {
    const exists = await selectOwnedClient(trx, operator.bookId, clientId);
    return exists ? { kind: 'out-of-range' } : { kind: 'not-found' };
  }
  const row = updated as ClientRow;
  const after = exactInteger(row.balance_paise);
  const before = after - delta;
  const duesVersionRaised = await adjustTotals(
    trx,
    operator.bookId,
    before,
    after,
    input.on,
    payment ? amount : 0n,
    true,
  );
  const dueOn = payment
    ? null
    : (input.dueOn ?? dueByTerms(input.on, await paymentTermsOf(trx, operator.bookId)));
  const entry = await appendEntry(trx, {
    ownerId: operator.bookId,
    clientId,
    kind: input.kind,
    amountPaise: delta,
    balanceAfterPaise: after,
    note: input.note ?? '',
    on: input.on,
    dueOn,
    createdBy: operator,
  });
  const due = await moveUnpaid(trx, {
    ownerId: operator.bookId,
    clientId,
    before,
    after,
    dueOn: dueOn ?? input.on,
    today,
    current: { oldestDueOn: row.oldest_due_on, latestDueOn: row.latest_due_on },
    duesVersionRaised,
  });
  if (payment) {
    // A payment of today's deals with the client today. One dated earlier does when it leaves
    // nothing overdue (paid yesterday, as promised, recorded from the round); otherwise it is
    // the book being written up, and must not take a client still overdue off today's round.
    // Likewise on the rounds of the day either side, which a browser elsewhere may ask for.
    for (const day of roundsPaidOn(input.on, today, due.oldestDueOn)) {
      await markDealtWith(trx, operator.bookId, row, day, 'paid');
    }
    if (await creditPromise(trx, row, { paise: amount, on: input.on })) {
      Object.assign(row, { promise_id: null, promise_amount_paise: null, promise_by: null });
    }
  }
  const client = toClient(
    {
      ...row,
      oldest_due_on: due.oldestDueOn,
      latest_due_on: due.latestDueOn,
      overdue_paise: due.overduePaise,
    },
    today,
  );
  return { kind: 'recorded', entry, client };
}

const ENTRY_COLUMNS = sql.raw(`e.seq, e.id, e.client_id, e.kind, e.amount_paise,
  e.balance_after_paise, e.note, e.on_date, e.created_at, e.created_by,
  u.email AS created_by_email, e.due_on`);

/** One page of a client's entries, newest first (in the order recorded). */
export async function listEntries(
  reader: DatabaseReader,
  ownerId: string,
  clientId: string,
  page: { limit: number; before?: bigint | undefined },
): Promise<{ items: Entry[]; nextSeq: bigint | null } | undefined> {
  const client = await selectOwnedClient(reader, ownerId, clientId);
  if (!client) return undefined;
  const before = page.before ?? null;
  const rows = await sql<EntryRow>`SELECT ${ENTRY_COLUMNS}
    FROM ledger_entries e JOIN "user" u ON u.id = e.created_by
    WHERE e.client_id = ${clientId} AND e.owner_id = ${ownerId}
      ${before === null ? sql`` : sql`AND e.seq < ${before}`}
    ORDER BY e.seq DESC LIMIT ${page.limit + 1}`.execute(reader.db);
  const more = rows.rows.length > page.limit;
  const items = rows.rows.slice(0, page.limit);
  const last = items[items.length - 1];
  return {
    items: items.map(toEntry),
    // Where the next page starts: the route shows it enciphered (http/page-cursors.ts).
    nextSeq: more && last ? exactInteger(last.seq) : null,
  };
}

/**
 * A client's statement for a date range: the balance at the start of `from`, every entry
 * dated in the range (oldest first), what was added and taken off, and the balance at the end.
 */
/** A statement's figures; its entries come as JSON text, written by the database. */
interface StatementParts {
  summary: Omit<Statement, 'entries'>;
  /** `Entry[]`, oldest first, as JSON. */
  entriesJson: string;
}

/** Paise as the API writes an amount ("-1234.50"), computed in SQL on either dialect. */
function amountSql(dialect: DatabaseReader['dialect'], column: string): string {
  const fraction =
    dialect === 'sqlite'
      ? `printf('%02d', abs(${column}) % 100)`
      : `lpad((abs(${column}) % 100)::text, 2, '0')`;
  const units = dialect === 'sqlite' ? `(abs(${column}) / 100)` : `(abs(${column}) / 100)::text`;
  return `(CASE WHEN ${column} < 0 THEN '-' ELSE '' END || ${units} || '.' || ${fraction})`;
}

/**
 * The entries of a statement as one JSON array built by the database: a year of a busy
 * client is thousands of entries, and building the text in SQL is several times faster than
 * reading the rows into objects, checking and stringifying them (decision 0014). The fields
 * are those of `toEntry`; a test holds the two to the same answer.
 */
function entriesJsonSql(dialect: DatabaseReader['dialect']): string {
  const fields = [
    `'id', e.id`,
    `'clientId', e.client_id`,
    `'kind', e.kind`,
    `'amount', ${amountSql(dialect, 'e.amount_paise')}`,
    `'balanceAfter', ${amountSql(dialect, 'e.balance_after_paise')}`,
    `'note', e.note`,
    `'on', e.on_date`,
    `'dueOn', e.due_on`,
    `'createdAt', e.created_at`,
  ];
  if (dialect === 'sqlite') {
    return `json_group_array(json_object(${fields.join(', ')},
      'createdBy', json_object('id', e.created_by, 'email', u.email)) ORDER BY e.on_date, e.seq)`;
  }
  return `COALESCE(json_agg(json_build_object(${fields.join(', ')},
    'createdBy', json_build_object('id', e.created_by, 'email', u.email)) ORDER BY e.on_date, e.seq)::text, '[]')`;
}

/**
 * A client's statement for a date range: the balance at its start, what was added and taken
 * off in it, and every entry dated in it, oldest first.
 */
export async function statementOf(
  reader: DatabaseReader,
  ownerId: string,
  clientId: string,
  range: { from: string; to: string },
  today: string,
): Promise<StatementParts | undefined> {
  const client = await selectOwnedClient(reader, ownerId, clientId);
  if (!client) return undefined;
  const [before, [inRange]] = await readTogether<
    [{ opening: DbInteger }[], { added: DbInteger; taken: DbInteger; entries_json: string }[]]
  >(reader, [
    sql`SELECT COALESCE(SUM(amount_paise), 0) AS opening FROM ledger_entries
      WHERE client_id = ${clientId} AND owner_id = ${ownerId} AND on_date < ${range.from}`,
    // SQLite's SUM is exact or fails loudly (integer overflow), never rounds.
    sql`SELECT COALESCE(SUM(CASE WHEN e.amount_paise > 0 THEN e.amount_paise END), 0) AS added,
        COALESCE(SUM(CASE WHEN e.amount_paise < 0 THEN -e.amount_paise END), 0) AS taken,
        ${sql.raw(entriesJsonSql(reader.dialect))} AS entries_json
      FROM ledger_entries e JOIN "user" u ON u.id = e.created_by
      WHERE e.client_id = ${clientId} AND e.owner_id = ${ownerId}
        AND e.on_date >= ${range.from} AND e.on_date <= ${range.to}`,
  ]);
  const opening = exactInteger(before[0]?.opening ?? 0);
  const added = exactInteger(inRange?.added ?? 0);
  const taken = exactInteger(inRange?.taken ?? 0);
  return {
    summary: {
      client: await answerClient(reader, client, today),
      from: range.from,
      to: range.to,
      opening: formatAmount(opening),
      charges: formatAmount(added),
      payments: formatAmount(taken),
      closing: formatAmount(opening + added - taken),
    },
    entriesJson: inRange?.entries_json ?? '[]',
  };
}

/** The statement's answer: its figures with the database's entries text spliced in. */
export function statementJson({ summary, entriesJson }: StatementParts): string {
  return `${JSON.stringify(summary).slice(0, -1)},"entries":${entriesJson}}`;
}

const dailyDeltasQuery = compiledQuery(
  'daily-deltas-after',
  (db, p: { ownerId: string; after: string }) =>
    db
      .selectFrom('owner_daily_deltas')
      .select(['on_date', 'delta_paise'])
      .where('owner_id', '=', p.ownerId)
      .where('on_date', '>', p.after)
      .orderBy('on_date', 'desc'),
);

/**
 * The operator's total owed at the end of each day of a range, from the running total and
 * the changes booked each day since: a handful of rows however long the ledger is.
 */
export async function totalsHistory(
  reader: DatabaseReader,
  ownerId: string,
  range: { from: string; to: string },
): Promise<TotalsHistory> {
  const [[totals], deltas] = await Promise.all([
    ownerTotalsQuery(reader.db, { ownerId }),
    dailyDeltasQuery(reader.db, { ownerId, after: range.from }),
  ]);
  let total = totals ? exactInteger(totals.total_paise) : 0n;
  // The total at the end of a day is today's minus every later change: those after the range
  // at once (a range of long ago would otherwise be walked to day by day), then back through it.
  const later = new Map(deltas.map((row) => [row.on_date, exactInteger(row.delta_paise)]));
  for (const [on, delta] of later) if (on > range.to) total -= delta;
  let day = range.to;
  const points: { on: string; totalOwed: string }[] = [];
  while (day >= range.from) {
    points.push({ on: day, totalOwed: formatAmount(total) });
    total -= later.get(day) ?? 0n;
    day = addDays(day, -1);
  }
  return { points: points.reverse() };
}

/**
 * The operator's pending "I have paid" claims (a handful of rows, through their index); a
 * deleted client's wait with it and count again if it comes back.
 */
const pendingClaimsQuery = compiledQuery('pending-claims-count', (db, p: { ownerId: string }) =>
  db
    .selectFrom('payment_claims as p')
    .innerJoin('clients as c', 'c.id', 'p.client_id')
    .select((eb) => eb.fn.countAll<DbInteger>().as('count'))
    .where('p.owner_id', '=', p.ownerId)
    .where('p.status', '=', 'pending'),
);

/** What is overdue on `today`, every client together: the sums of the days before it. */
const overdueTotalQuery = compiledQuery(
  'overdue-total',
  (db, p: { ownerId: string; today: string }) =>
    db
      .selectFrom('owner_dues')
      .select((eb) => eb.fn.sum<DbInteger>('amount_paise').as('overdue'))
      .where('owner_id', '=', p.ownerId)
      .where('due_on', '<', p.today),
);

/** Payments dated in a range of days, from the daily totals. */
const collectedQuery = compiledQuery(
  'collected-between',
  (db, p: { ownerId: string; from: string; to: string }) =>
    db
      .selectFrom('owner_daily_deltas')
      .select((eb) => eb.fn.sum<DbInteger>('collected_paise').as('collected'))
      .where('owner_id', '=', p.ownerId)
      .where('on_date', '>=', p.from)
      .where('on_date', '<=', p.to),
);

/** The first and last day of the month of `day`, and of the month before. */
function monthsOf(day: string) {
  const [year = 0, month = 1] = day.split('-').map(Number);
  const first = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}-01`;
  const thisFirst = first(year, month);
  const lastFirst = month === 1 ? first(year - 1, 12) : first(year, month - 1);
  return {
    thisMonth: { from: thisFirst, to: `${thisFirst.slice(0, 8)}31` },
    lastMonth: { from: lastFirst, to: `${lastFirst.slice(0, 8)}31` },
  };
}

/** The operator's totals now: net, owed to them, held in credit, overdue and collected. */
export async function currentTotals(reader: DatabaseReader, ownerId: string, today: string) {
  const months = monthsOf(today);
  const [[row], [pending], [overdue], [thisMonth], [lastMonth]] = await Promise.all([
    ownerTotalsQuery(reader.db, { ownerId }),
    pendingClaimsQuery(reader.db, { ownerId }),
    overdueTotalQuery(reader.db, { ownerId, today }),
    collectedQuery(reader.db, { ownerId, ...months.thisMonth }),
    collectedQuery(reader.db, { ownerId, ...months.lastMonth }),
  ]);
  const value = (column: DbInteger | undefined) =>
    column === undefined ? 0n : exactInteger(column);
  return {
    clients: Number(value(row?.client_count)),
    totalOwed: formatAmount(value(row?.total_paise)),
    owing: formatAmount(value(row?.owing_paise)),
    owingClients: Number(value(row?.owing_count)),
    credit: formatAmount(-value(row?.credit_paise)),
    creditClients: Number(value(row?.credit_count)),
    pendingClaims: Number(value(pending?.count)),
    overdue: formatAmount(value(overdue?.overdue ?? undefined)),
    collectedThisMonth: formatAmount(value(thisMonth?.collected ?? undefined)),
    collectedLastMonth: formatAmount(value(lastMonth?.collected ?? undefined)),
  };
}
