import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Client } from '../../shared/client-schema.ts';
import { languageOrDefault } from '../../shared/languages.ts';
import { formatAmount } from '../../shared/money.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import type { WriteTransaction } from '../db/database.ts';
import { type DbInteger, exactInteger, smallInteger } from '../db/integers.ts';
import { handleOf, type ReadSource } from '../db/reader.ts';
import type { ClientsTable } from '../db/schema.ts';

export type ClientRow = Pick<
  Selectable<ClientsTable>,
  | 'id'
  | 'fname'
  | 'lname'
  | 'email'
  | 'phone'
  | 'phone_display'
  | 'phone_valid'
  | 'balance_paise'
  | 'version'
  | 'last_payment_on'
  | 'pending_claims'
  | 'last_reminded_on'
  | 'oldest_due_on'
  | 'latest_due_on'
  | 'promise_id'
  | 'promise_amount_paise'
  | 'promise_by'
  | 'language'
  | 'created_at'
  | 'updated_at'
> & {
  /**
   * What is overdue today, read with the row (`overdueColumn`) where some of the client's
   * unpaid amounts are overdue and some not; the row's dates decide the other cases.
   */
  overdue_paise?: DbInteger | null;
};

export const CLIENT_COLUMNS = [
  'id',
  'fname',
  'lname',
  'email',
  'phone',
  'phone_display',
  'phone_valid',
  'balance_paise',
  'version',
  'last_payment_on',
  'pending_claims',
  'last_reminded_on',
  'oldest_due_on',
  'latest_due_on',
  'promise_id',
  'promise_amount_paise',
  'promise_by',
  'language',
  'created_at',
  'updated_at',
] as const;

/**
 * The overdue amount on `today` as a column of a client read (`c`), computed only for a client
 * with unpaid amounts both past due and not yet due: one short range of its `dues`.
 */
export function overdueColumn(today: unknown, alias = 'c'): RawBuilder<DbInteger | null> {
  const c = sql.raw(alias);
  return sql<DbInteger | null>`CASE WHEN ${c}.oldest_due_on < ${today}
    AND ${c}.latest_due_on >= ${today} THEN (SELECT SUM(d.amount_paise) FROM dues d
      WHERE d.client_id = ${c}.id AND d.due_on < ${today}) END`;
}

/** Whether what a client owes is partly overdue and partly not yet due on `today`. */
function partlyOverdue(row: ClientRow, today: string): boolean {
  return (
    row.oldest_due_on !== null &&
    row.oldest_due_on < today &&
    row.latest_due_on !== null &&
    row.latest_due_on >= today
  );
}

function overdueOf(
  row: ClientRow,
  today: string,
): { overdue: string; overdueSince: string | null } {
  const oldest = row.oldest_due_on;
  if (oldest === null || oldest >= today) return { overdue: '0.00', overdueSince: null };
  if (!partlyOverdue(row, today)) {
    // All of it is past due: what is unpaid is the balance.
    return { overdue: amountText(row.balance_paise), overdueSince: oldest };
  }
  if (row.overdue_paise === undefined || row.overdue_paise === null) {
    throw new Error('A partly overdue client was read without its overdue amount');
  }
  return { overdue: amountText(row.overdue_paise), overdueSince: oldest };
}

function promiseOf(row: ClientRow, today: string): Client['promise'] {
  if (row.promise_id === null || row.promise_by === null || row.promise_amount_paise === null) {
    return null;
  }
  return {
    id: row.promise_id,
    amount: amountText(row.promise_amount_paise),
    by: row.promise_by,
    status: row.promise_by < today ? 'broken' : 'open',
  };
}

const CLIENT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Client ids are lower-case UUIDs; any other text names no client and reaches no query. */
export function isClientId(id: string): boolean {
  return CLIENT_ID_PATTERN.test(id);
}

/** A column of paise as the API's text; a number (SQLite's, up to 2^53) needs no bigint. */
function amountText(paise: DbInteger): string {
  return formatAmount(typeof paise === 'number' ? paise : exactInteger(paise));
}

/**
 * A client as the API answers it on `today` (the panel's date): its overdue figures follow the
 * calendar with no write.
 */
export function toClient(row: ClientRow, today: string): Client {
  return {
    id: row.id,
    fname: row.fname,
    lname: row.lname,
    email: row.email,
    phone: row.phone,
    phoneDisplay: row.phone_display ?? row.phone,
    phoneValid: smallInteger(row.phone_valid) !== 0,
    balance: amountText(row.balance_paise),
    version: smallInteger(row.version),
    lastPaymentOn: row.last_payment_on,
    pendingClaims: smallInteger(row.pending_claims),
    lastRemindedOn: row.last_reminded_on,
    ...overdueOf(row, today),
    promise: promiseOf(row, today),
    language: languageOrDefault(row.language),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toTotals(row: { count: DbInteger; total: DbInteger } | undefined): {
  total: number;
  totalOwed: string;
} {
  return {
    total: row ? smallInteger(row.count) : 0,
    totalOwed: formatAmount(row ? exactInteger(row.total) : 0n),
  };
}

const ownedClientQuery = compiledQuery('owned-client', (db, p: { ownerId: string; id: string }) =>
  db
    .selectFrom('clients')
    .select(CLIENT_COLUMNS)
    .where('id', '=', p.id)
    .where('owner_id', '=', p.ownerId),
);

/** A client read on its own (after a write, or the details page) as the API answers it. */
export async function answerClient(
  source: ReadSource,
  row: ClientRow,
  today: string,
): Promise<Client> {
  if (partlyOverdue(row, today) && row.overdue_paise == null) {
    const [sum] = await handleOf(source)
      .selectFrom('dues')
      .select((eb) => eb.fn.sum<DbInteger>('amount_paise').as('overdue'))
      .where('client_id', '=', row.id)
      .where('due_on', '<', today)
      .execute();
    return toClient({ ...row, overdue_paise: sum?.overdue ?? 0 }, today);
  }
  return toClient(row, today);
}

/**
 * Takes the client row's write lock before a write reads it to decide what to change, and
 * answers the row: on PostgreSQL a second such write on the client (or a delete) then waits
 * here until the first commits, and reads what it left, or finds the client gone (SQLite runs
 * one write at a time anyway). Undefined: no such client.
 */
export async function lockOwnedClient(
  trx: WriteTransaction,
  ownerId: string,
  id: string,
): Promise<ClientRow | undefined> {
  if (!isClientId(id)) return undefined;
  const [locked] = await lockClientQuery(trx, { ownerId, id });
  return locked as ClientRow | undefined;
}

const lockClientQuery = compiledQuery(
  'lock-owned-client',
  (db, p: { ownerId: string; id: string }) =>
    db
      .updateTable('clients')
      .set({ version: sql`version` })
      .where('id', '=', p.id)
      .where('owner_id', '=', p.ownerId)
      .returning(CLIENT_COLUMNS),
);

export async function selectOwnedClient(
  source: ReadSource,
  ownerId: string,
  id: string,
): Promise<ClientRow | undefined> {
  if (!isClientId(id)) return undefined;
  const [row] = await ownedClientQuery(handleOf(source), { ownerId, id });
  return row;
}
