// Deleting clients, restorable for a while, then gone for good.
import { type Selectable, sql } from 'kysely';
import type { Client } from '../../shared/client-schema.ts';
import { formatPhone, parsePhone } from '../../shared/phone.ts';
import type { WriteTransaction } from '../db/database.ts';
import { exactInteger } from '../db/integers.ts';
import type { ClientsTable, LedgerEntriesTable } from '../db/schema.ts';
import { dropUnpaid, type ReplayedEntry, replayUnpaid } from '../dues/unpaid-repository.ts';
import { CLIENT_COLUMNS, type ClientRow, isClientId, toClient } from './client-rows.ts';
import type { Author } from './clients-write.ts';
import { adjustTotals } from './running-totals.ts';

/** How long a deleted client can be restored. */
export const RESTORE_WINDOW_MS = 10 * 60 * 1000;

/** JSON that keeps 64-bit integers exact: as decimal text. */
function snapshot(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/**
 * Moves each client's rows (`each`), in id order, then books their totals (`book`), and
 * answers what `each` gave, in the order the ids were given (once each, none where it gave
 * nothing). Every client's rows are locked before the operator's totals row: taking the
 * totals after each client let two deletes of the same clients in other orders deadlock on
 * PostgreSQL.
 */
async function clientsInLockOrder<T>(
  ids: readonly string[],
  each: (id: string) => Promise<T | undefined>,
  book: (value: T) => Promise<void>,
): Promise<T[]> {
  const unique = [...new Set(ids)];
  const done = new Map<string, T>();
  for (const id of [...unique].sort()) {
    const value = await each(id);
    if (value !== undefined) done.set(id, value);
  }
  for (const value of done.values()) await book(value);
  return unique.flatMap((id) => (done.has(id) ? [done.get(id) as T] : []));
}

/**
 * Deletes clients and their entries, keeping both restorable for RESTORE_WINDOW_MS (the rows
 * go into `deleted_clients` as they were, in the same transaction), and answers the clients it
 * deleted (ids and names), in the order given. What can no longer be restored goes for good first.
 */
export async function deleteClients(
  trx: WriteTransaction,
  author: Author,
  ids: readonly string[],
  now: Date = new Date(),
): Promise<DeletedClient[]> {
  await purgeDeletedClients(trx, now);
  const deleted = await clientsInLockOrder(
    ids,
    async (id) => {
      const removed = await removeClient(trx, author, id, now);
      return removed === undefined ? undefined : { id, ...removed };
    },
    // Its balance leaves the operator's total today; its entries and unpaid amounts go with it.
    async ({ id, balance }) => {
      await adjustTotals(trx, author.operator.bookId, balance, null, author.today);
      await dropUnpaid(trx, author.operator.bookId, id);
    },
  );
  return deleted.map(({ id, fname, lname }) => ({ id, fname, lname }));
}

/** A client deleted: its id, and its name as it was (for the activity log). */
export interface DeletedClient {
  id: string;
  fname: string;
  lname: string;
}

/**
 * A client's rows moved to `deleted_clients`: its balance and name, or undefined if there is
 * no such client.
 */
async function removeClient(
  trx: WriteTransaction,
  author: Author,
  id: string,
  now: Date,
): Promise<{ balance: bigint; fname: string; lname: string } | undefined> {
  const ownerId = author.operator.bookId;
  if (!isClientId(id)) return undefined;
  // An update that changes nothing locks the row on PostgreSQL (SQLite has one writer): a
  // payment recorded at the same moment waits, so the balance and entries kept are the last.
  const client = await trx
    .updateTable('clients')
    .set({ version: sql<number>`version` })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .returningAll()
    .executeTakeFirst();
  if (!client) return undefined;
  const entries = await trx
    .selectFrom('ledger_entries')
    .selectAll()
    .where('client_id', '=', id)
    .orderBy('seq')
    .execute();
  await trx.deleteFrom('deleted_clients').where('client_id', '=', id).execute();
  await trx
    .insertInto('deleted_clients')
    .values({
      client_id: id,
      owner_id: ownerId,
      deleted_at: now.toISOString(),
      client_row: snapshot(client),
      entry_rows: snapshot(entries),
    })
    .execute();
  await trx.deleteFrom('clients').where('id', '=', id).execute();
  return { balance: exactInteger(client.balance_paise), fname: client.fname, lname: client.lname };
}

/** A row as `snapshot` wrote it: its 64-bit integers as numbers or decimal text. */
type Snapshot<Row> = { [Column in keyof Row]: Exclude<Row[Column], bigint> };

/** Columns later migrations added: absent from a client deleted before them (minutes before). */
type AddedColumns =
  | 'phone_display'
  | 'phone_valid'
  | 'pending_claims'
  | 'last_reminded_on'
  | 'oldest_due_on'
  | 'latest_due_on'
  | 'promise_id'
  | 'promise_amount_paise'
  | 'promise_by'
  | 'language';

type ClientSnapshot = Omit<Snapshot<Selectable<ClientsTable>>, AddedColumns> &
  Partial<Pick<Snapshot<Selectable<ClientsTable>>, AddedColumns>>;

type EntrySnapshot = Omit<Snapshot<Selectable<LedgerEntriesTable>>, 'due_on'> &
  Partial<Pick<Snapshot<Selectable<LedgerEntriesTable>>, 'due_on'>>;

/** Rows per insert when entries come back: well under SQLite's limit of bound values. */
const RESTORE_BATCH = 500;

/**
 * Puts clients deleted less than RESTORE_WINDOW_MS ago back as they were, with their entries
 * in their order, and their balances back in the totals (booked today, as the delete was).
 * Answers those it restored, in the order given: none for a client never deleted, another
 * operator's, or deleted too long ago.
 */
export async function restoreClients(
  trx: WriteTransaction,
  author: Author,
  ids: readonly string[],
  now: Date = new Date(),
): Promise<Client[]> {
  const ownerId = author.operator.bookId;
  const restored = await clientsInLockOrder(
    ids,
    (id) => bringBack(trx, author, id, now),
    async (back) => {
      const balance = exactInteger(back.row.balance_paise);
      await adjustTotals(trx, ownerId, null, balance, author.today);
      const due = await replayUnpaid(trx, ownerId, back.row.id, back.entries, author.today);
      back.client = toClient(
        {
          ...back.row,
          oldest_due_on: due.oldestDueOn,
          latest_due_on: due.latestDueOn,
          overdue_paise: due.overduePaise,
        },
        author.today,
      );
    },
  );
  return restored.flatMap((back) => (back.client ? [back.client] : []));
}

/** A client put back: its row, and its entries to replay its unpaid amounts from. */
interface BroughtBack {
  row: ClientRow;
  entries: ReplayedEntry[];
  /** Set once its totals and unpaid amounts are back. */
  client?: Client;
}

/** A deleted client's rows put back; its totals and unpaid amounts not yet (the caller's). */
async function bringBack(
  trx: WriteTransaction,
  author: Author,
  id: string,
  now: Date,
): Promise<BroughtBack | undefined> {
  // Not an id (PostgreSQL would refuse one with a NUL byte in it): nothing to restore.
  if (!isClientId(id)) return undefined;
  const ownerId = author.operator.bookId;
  const kept = await trx
    .deleteFrom('deleted_clients')
    .where('client_id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('deleted_at', '>', new Date(now.getTime() - RESTORE_WINDOW_MS).toISOString())
    .returningAll()
    .executeTakeFirst();
  if (!kept) return undefined;
  // Every column but the sequence number: a client created since may hold the old one.
  const c = JSON.parse(kept.client_row) as ClientSnapshot;
  const restored = await trx
    .insertInto('clients')
    .values({
      id: c.id,
      owner_id: c.owner_id,
      fname: c.fname,
      lname: c.lname,
      email: c.email,
      phone: c.phone,
      phone_display: c.phone_display ?? formatPhone(c.phone),
      phone_valid:
        c.phone_valid === undefined ? Number(parsePhone(c.phone).ok) : Number(c.phone_valid),
      balance_paise: BigInt(c.balance_paise),
      version: Number(c.version),
      search_text: c.search_text,
      last_payment_on: c.last_payment_on,
      // Its claims, links and reminders stayed while it was away (clientless rows, purged
      // only with it for good), so its count is still theirs.
      pending_claims: Number(c.pending_claims ?? 0),
      last_reminded_on: c.last_reminded_on ?? null,
      // Its promises stayed too; its unpaid amounts are replayed from its entries.
      promise_id: c.promise_id ?? null,
      promise_amount_paise:
        c.promise_amount_paise === undefined || c.promise_amount_paise === null
          ? null
          : BigInt(c.promise_amount_paise),
      promise_by: c.promise_by ?? null,
      // Deleted before languages existed: English, as the migration made every client.
      language: c.language ?? 'en',
      created_at: c.created_at,
      updated_at: c.updated_at,
    })
    .returning(CLIENT_COLUMNS)
    .executeTakeFirstOrThrow();
  const entries = (JSON.parse(kept.entry_rows) as EntrySnapshot[]).map((e) => ({
    id: e.id,
    owner_id: e.owner_id,
    client_id: e.client_id,
    kind: e.kind,
    amount_paise: BigInt(e.amount_paise),
    balance_after_paise: BigInt(e.balance_after_paise),
    note: e.note,
    on_date: e.on_date,
    created_at: e.created_at,
    created_by: e.created_by,
    // Deleted before due dates existed: due on its own date, as the migration made them.
    due_on: e.due_on ?? (BigInt(e.amount_paise) > 0n ? e.on_date : null),
  }));
  for (let i = 0; i < entries.length; i += RESTORE_BATCH) {
    await trx
      .insertInto('ledger_entries')
      .values(entries.slice(i, i + RESTORE_BATCH))
      .execute();
  }
  return {
    row: restored,
    entries: entries.map((e) => ({ amountPaise: e.amount_paise, dueOn: e.due_on, on: e.on_date })),
  };
}

/** Deleted clients past their restore window are removed for good. */
export async function purgeDeletedClients(
  trx: WriteTransaction,
  now: Date = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - RESTORE_WINDOW_MS).toISOString();
  const gone = await trx
    .deleteFrom('deleted_clients')
    .where('deleted_at', '<=', cutoff)
    .returning('client_id')
    .execute();
  const ids = gone.map((row) => row.client_id);
  // Statement links, claims and reminders name their client without a foreign key (it may
  // come back): they go with it for good, a few hundred ids per statement.
  for (let i = 0; i < ids.length; i += RESTORE_BATCH) {
    const batch = ids.slice(i, i + RESTORE_BATCH);
    for (const table of [
      'share_links',
      'payment_claims',
      'reminders',
      'promises',
      'collect_done',
    ] as const) {
      await trx.deleteFrom(table).where('client_id', 'in', batch).execute();
    }
  }
  return ids.length;
}
