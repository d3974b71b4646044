// Promises to pay: one open promise per client, kept by the payments recorded after it.

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Client } from '../../shared/client-schema.ts';
import type {
  NewPromise,
  PromiseStatus,
  Promises,
  PromiseToPay,
} from '../../shared/dues-schema.ts';
import { formatAmount, paiseFromAmount } from '../../shared/money.ts';
import type { BookMember } from '../books/book-member.ts';
import {
  answerClient,
  CLIENT_COLUMNS,
  type ClientRow,
  lockOwnedClient,
  selectOwnedClient,
} from '../clients/client-rows.ts';
import type { WriteTransaction } from '../db/database.ts';
import { type DbInteger, exactInteger } from '../db/integers.ts';
import { handleOf, type ReadSource } from '../db/reader.ts';
import { markDealtWithToday } from './collect-round.ts';

interface PromiseRow {
  id: string;
  amount_paise: DbInteger;
  by_on: string;
  note: string;
  status: string;
  paid_paise: DbInteger;
  created_at: string;
  created_by: string;
  created_by_email: string;
}

/** A stored promise as the API answers it on `today`: an open one past its day is broken. */
function toPromise(row: PromiseRow, today: string): PromiseToPay {
  const status: PromiseStatus =
    row.status === 'open' && row.by_on < today ? 'broken' : (row.status as PromiseStatus);
  return {
    id: row.id,
    amount: formatAmount(exactInteger(row.amount_paise)),
    by: row.by_on,
    note: row.note,
    status,
    paid: formatAmount(exactInteger(row.paid_paise)),
    createdAt: row.created_at,
    createdBy: { id: row.created_by, email: row.created_by_email },
  };
}

type CreateOutcome =
  | { kind: 'created'; promise: PromiseToPay; client: Client }
  | { kind: 'not-found' };

/**
 * Records a promise, replacing the client's open one (a broken one stays broken), and marks the client
 * dealt with on today's round; the client row carries the open promise.
 */
export async function createPromise(
  trx: WriteTransaction,
  operator: BookMember,
  clientId: string,
  input: NewPromise,
  today: string,
): Promise<CreateOutcome> {
  // Two promises made at once: the second replaces the first, as one after the other would.
  const before = await lockOwnedClient(trx, operator.bookId, clientId);
  if (!before) return { kind: 'not-found' };
  const now = new Date().toISOString();
  await trx
    .updateTable('promises')
    .set({ status: 'replaced', decided_at: now })
    .where('client_id', '=', clientId)
    .where('status', '=', 'open')
    // A broken promise stays broken in the client's record.
    .where('by_on', '>=', today)
    .execute();
  const row = {
    id: randomUUID(),
    owner_id: operator.bookId,
    client_id: clientId,
    amount_paise: paiseFromAmount(input.amount),
    by_on: input.by,
    note: input.note ?? '',
    status: 'open',
    paid_paise: 0n,
    created_at: now,
    created_by: operator.id,
  };
  await trx.insertInto('promises').values(row).execute();
  await markDealtWithToday(
    trx,
    operator.bookId,
    before,
    { ...before, promise_by: input.by },
    today,
    'promised',
  );
  const updated = await trx
    .updateTable('clients')
    .set({ promise_id: row.id, promise_amount_paise: row.amount_paise, promise_by: row.by_on })
    .where('id', '=', clientId)
    .returning(CLIENT_COLUMNS)
    .executeTakeFirstOrThrow();
  return {
    kind: 'created',
    promise: toPromise({ ...row, created_by_email: operator.email }, today),
    client: await answerClient(trx, updated as ClientRow, today),
  };
}

/**
 * Counts a payment toward the client's open promise when it is dated on or before the
 * promised day; once they reach its amount the promise is kept and leaves the client row.
 * In the payment's transaction, after the client row is locked.
 */
export async function creditPromise(
  trx: WriteTransaction,
  row: Pick<ClientRow, 'id' | 'promise_id' | 'promise_by'>,
  payment: { paise: bigint; on: string },
): Promise<boolean> {
  if (row.promise_id === null || row.promise_by === null || payment.on > row.promise_by) {
    return false;
  }
  const [updated] = (
    await sql<{ paid_paise: DbInteger; amount_paise: DbInteger }>`UPDATE promises
      SET paid_paise = paid_paise + ${payment.paise}
      WHERE id = ${row.promise_id} AND status = 'open'
      RETURNING paid_paise, amount_paise`.execute(trx)
  ).rows;
  if (!updated || exactInteger(updated.paid_paise) < exactInteger(updated.amount_paise)) {
    return false;
  }
  await sql`UPDATE promises SET status = 'kept', decided_at = ${new Date().toISOString()}
    WHERE id = ${row.promise_id}`.execute(trx);
  await sql`UPDATE clients SET promise_id = NULL, promise_amount_paise = NULL, promise_by = NULL
    WHERE id = ${row.id}`.execute(trx);
  return true;
}

/** Promises with the e-mail of who recorded each, as `toPromise` reads them. */
function promiseRows(source: ReadSource) {
  return handleOf(source)
    .selectFrom('promises as p')
    .innerJoin('user as u', 'u.id', 'p.created_by')
    .select([
      'p.id',
      'p.amount_paise',
      'p.by_on',
      'p.note',
      'p.status',
      'p.paid_paise',
      'p.created_at',
      'p.created_by',
      'u.email as created_by_email',
    ]);
}

/** A client's promises, newest first, with its record; undefined: not the operator's client. */
export async function listPromises(
  source: ReadSource,
  ownerId: string,
  clientId: string,
  today: string,
): Promise<Promises | undefined> {
  const client = await selectOwnedClient(source, ownerId, clientId);
  if (!client) return undefined;
  const rows = await promiseRows(source)
    .where('p.client_id', '=', clientId)
    .where('p.owner_id', '=', ownerId)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
  const items = rows.map((row) => toPromise(row, today));
  const kept = items.filter((item) => item.status === 'kept').length;
  const broken = items.filter((item) => item.status === 'broken').length;
  return { items, kept, decided: kept + broken };
}

/** The promise a client row names, as the API answers it (the collection round). */
export async function promisesById(
  source: ReadSource,
  ids: readonly string[],
  today: string,
): Promise<Map<string, PromiseToPay>> {
  if (ids.length === 0) return new Map();
  const rows = await promiseRows(source).where('p.id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, toPromise(row, today)]));
}
