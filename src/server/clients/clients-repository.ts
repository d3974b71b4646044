import { randomUUID } from 'node:crypto';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { ClientFields, ClientPatch } from '../../shared/client-fields-schema.ts';
import type {
  BalanceFilter,
  Client,
  ClientList,
  ClientListQuery,
  ClientSortField,
} from '../../shared/client-schema.ts';
import { formatAmount, paiseFromAmount } from '../../shared/money.ts';
import { formatPhone, parsePhone } from '../../shared/phone.ts';
import { foldForSearch, phoneSearchDigits, searchTextOf } from '../../shared/search-text.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import { insertRows } from '../db/insert-rows.ts';
import { type DbInteger, exactInteger, smallInteger } from '../db/integers.ts';
import { type DatabaseReader, readTogether } from '../db/reader.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import { appendEntry, insertEntries } from '../ledger/ledger-repository.ts';
import {
  CLIENT_COLUMNS,
  type ClientRow,
  isClientId,
  selectOwnedClient,
  toClient,
  toTotals,
} from './client-rows.ts';
import {
  addNewClientsToTotals,
  adjustTotals,
  ownerTotalsQuery,
  totalsOf,
} from './running-totals.ts';

export type { DatabaseReader };

/** Who is writing, and the panel's date today (in its time zone) for the ledger. */
export interface Author {
  operator: { id: string; email: string };
  today: string;
}

type WriteTransaction = Transaction<DatabaseSchema>;

const SORT_COLUMNS: Record<
  ClientSortField,
  'lname' | 'fname' | 'email' | 'phone' | 'balance_paise' | 'created_at' | 'last_payment_on'
> = {
  lname: 'lname',
  fname: 'fname',
  email: 'email',
  phone: 'phone',
  balance: 'balance_paise',
  createdAt: 'created_at',
  lastPaymentOn: 'last_payment_on',
};

/**
 * How a sort orders missing values: never having paid counts as the longest ago, on both
 * databases (SQLite puts NULL first by default, PostgreSQL last).
 */
function nullsOrder(sort: ClientSortField, dir: 'asc' | 'desc'): string {
  if (sort !== 'lastPaymentOn') return '';
  return dir === 'asc' ? ' NULLS FIRST' : ' NULLS LAST';
}

const BALANCE_CONDITIONS: Record<BalanceFilter, string> = {
  owing: 'balance_paise > 0',
  credit: 'balance_paise < 0',
  settled: 'balance_paise = 0',
};

/** The SQL that keeps the clients a balance filter names (none: every client). */
function balanceCondition(filter: BalanceFilter | undefined, alias = ''): RawBuilder<unknown> {
  return sql.raw(filter ? `${alias}${BALANCE_CONDITIONS[filter]}` : '1 = 1');
}

type PageParams = { ownerId: string; limit: number; offset: number };
const pageQueries = new Map<string, ReturnType<typeof buildPageQuery>>();

function buildPageQuery(
  sort: ClientSortField,
  dir: 'asc' | 'desc',
  filter: BalanceFilter | undefined,
) {
  return compiledQuery(`client-page:${sort}:${dir}:${filter ?? 'all'}`, (db, p: PageParams) => {
    let page = db
      .selectFrom('clients')
      .select(CLIENT_COLUMNS)
      .where('owner_id', '=', p.ownerId)
      .where(balanceCondition(filter) as RawBuilder<boolean>)
      .orderBy(sql.raw(`${SORT_COLUMNS[sort]} ${dir}${nullsOrder(sort, dir)}`));
    if (sort === 'lname') page = page.orderBy('fname', dir);
    return page.orderBy('seq', dir).limit(p.limit).offset(p.offset);
  });
}

function pageQuery(query: ClientListQuery) {
  const { sort, dir, balance } = query;
  const key = `${sort}:${dir}:${balance ?? 'all'}`;
  let compiled = pageQueries.get(key);
  if (!compiled) {
    compiled = buildPageQuery(sort, dir, balance);
    pageQueries.set(key, compiled);
  }
  return compiled;
}

function orderBy(query: ClientListQuery): RawBuilder<unknown> {
  const direction = sql.raw(query.dir === 'desc' ? 'DESC' : 'ASC');
  const column = sql.ref(`c.${SORT_COLUMNS[query.sort]}`);
  const nulls = sql.raw(nullsOrder(query.sort, query.dir));
  return query.sort === 'lname'
    ? sql`${column} ${direction}, c.fname ${direction}, c.seq ${direction}`
    : sql`${column} ${direction}${nulls}, c.seq ${direction}`;
}

/** The trigram index finds substrings of 3 or more characters. */
const MIN_INDEXED_SEARCH = 3;

/** Up to this many matches, one query fetches them all and the totals are summed here. */
const SMALL_MATCH_SET = 200;

/** Escapes LIKE's wildcards so that the search text matches literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Folded search text contains any of the needles, as a scan (short searches, PostgreSQL). */
function containsCondition(reader: DatabaseReader, needles: string[]): RawBuilder<unknown> {
  const each = needles.map((needle) =>
    reader.dialect === 'sqlite'
      ? sql`instr(c.search_text, ${needle}) > 0`
      : sql`c.search_text LIKE ${likePattern(needle)} ESCAPE '\\'`,
  );
  return sql`(${sql.join(each, sql` OR `)})`;
}

/**
 * What a search looks for: its folded text and, when it looks like a phone number, its
 * digits too ("098765-43210" finds a stored "+919876543210").
 */
function searchNeedles(q: string): string[] {
  const needles = [foldForSearch(q)];
  const digits = phoneSearchDigits(q);
  if (digits && !needles.includes(digits)) needles.push(digits);
  return needles;
}

/**
 * Search through SQLite's trigram index. One query fetches the matches in order, up to
 * SMALL_MATCH_SET + 1: when that is all of them, the totals are summed from those rows and
 * the page is cut from them (one index lookup in all). Broader searches count and sum in a
 * second query, and sort only their matches (docs/decisions/0006-search-index.md).
 */
async function searchThroughIndex(
  reader: DatabaseReader,
  ownerId: string,
  query: ClientListQuery,
  needles: string[],
): Promise<ClientList> {
  // FTS5 phrases match their text literally: quotes doubled, nothing else special.
  const phrase = needles.map((needle) => `"${needle.replaceAll('"', '""')}"`).join(' OR ');
  const matches = sql`clients_search s CROSS JOIN clients c ON c.seq = s.rowid
    WHERE clients_search MATCH ${phrase} AND c.owner_id = ${ownerId}
    AND ${balanceCondition(query.balance, 'c.')}`;
  const pageEnd = query.offset + query.limit;
  const [firstRows] = await readTogether<[ClientRow[]]>(reader, [
    sql`SELECT c.* FROM ${matches} ORDER BY ${orderBy(query)}
      LIMIT ${Math.max(SMALL_MATCH_SET + 1, pageEnd)}`,
  ]);
  const items = firstRows.slice(query.offset, pageEnd).map(toClient);
  if (firstRows.length <= SMALL_MATCH_SET) {
    const total = firstRows.reduce((sum, row) => sum + exactInteger(row.balance_paise), 0n);
    return { items, total: firstRows.length, totalOwed: formatAmount(total) };
  }
  const [totals] = await readTogether<[{ count: DbInteger; total: DbInteger }[]]>(reader, [
    sql`SELECT COUNT(*) AS count, COALESCE(SUM(c.balance_paise), 0) AS total FROM ${matches}`,
  ]);
  return { items, ...toTotals(totals[0]) };
}

/** A list query, optionally narrowed to clients picked by id (an export of a selection). */
type ClientsQuery = ClientListQuery & { ids?: readonly string[] | undefined };

function idsCondition(ids: readonly string[] | undefined): RawBuilder<unknown> {
  if (!ids) return sql`1 = 1`;
  return ids.length > 0 ? sql`c.id IN (${sql.join(ids)})` : sql`1 = 0`;
}

async function searchByScan(
  reader: DatabaseReader,
  ownerId: string,
  query: ClientsQuery,
  needles: string[],
): Promise<ClientList> {
  const contains = needles.length > 0 ? containsCondition(reader, needles) : sql`1 = 1`;
  const matches = sql`clients c WHERE c.owner_id = ${ownerId} AND ${idsCondition(query.ids)}
    AND ${contains} AND ${balanceCondition(query.balance, 'c.')}`;
  // Matches first, then sorted: left to itself, PostgreSQL walks a whole sort index and
  // filters every client (69 ms for a broad search of 100,000) instead of using the trigram
  // index and sorting the 5,000 matches (15 ms).
  const [page] = await readTogether<
    [(ClientRow & { match_count: DbInteger; match_total: DbInteger })[]]
  >(reader, [
    sql`WITH m AS MATERIALIZED (SELECT * FROM ${matches})
      SELECT c.*, COUNT(*) OVER () AS match_count, SUM(c.balance_paise) OVER () AS match_total
      FROM m c ORDER BY ${orderBy(query)}
      LIMIT ${query.limit} OFFSET ${query.offset}`,
  ]);
  const first = page[0];
  if (first) {
    return {
      items: page.map(toClient),
      ...toTotals({ count: first.match_count, total: first.match_total }),
    };
  }
  if (query.offset === 0) return { items: [], total: 0, totalOwed: formatAmount(0n) };
  const [totals] = await readTogether<[{ count: DbInteger; total: DbInteger }[]]>(reader, [
    sql`SELECT COUNT(*) AS count, COALESCE(SUM(c.balance_paise), 0) AS total FROM ${matches}`,
  ]);
  return { items: [], ...toTotals(totals[0]) };
}

export async function listClients(
  reader: DatabaseReader,
  ownerId: string,
  query: ClientsQuery,
): Promise<ClientList> {
  if (query.q || query.ids) {
    const needles = query.q ? searchNeedles(query.q) : [];
    const indexed = needles.every((needle) => [...needle].length >= MIN_INDEXED_SEARCH);
    // Picked ids (at most 500) are found by their key: no search index is needed for them.
    return reader.dialect === 'sqlite' && indexed && !query.ids
      ? searchThroughIndex(reader, ownerId, query, needles)
      : searchByScan(reader, ownerId, query, needles);
  }
  const [rows, [totals]] = await Promise.all([
    pageQuery(query)(reader.db, { ownerId, limit: query.limit, offset: query.offset }),
    ownerTotalsQuery(reader.db, { ownerId }),
  ]);
  return { items: rows.map(toClient), ...totalsOf(totals, query.balance) };
}

/** Where a keyset page ends: the sort key of its last client. */
export type ClientsCursor = readonly (string | number | bigint)[];

/** The columns a view is ordered by, in order, each ending in seq. */
function keyColumns(sort: ClientSortField): string[] {
  const column = SORT_COLUMNS[sort];
  return sort === 'lname' ? [column, 'fname', 'seq'] : [column, 'seq'];
}

/**
 * A page of a view without a search, after a cursor rather than an offset: each page is a
 * range read straight off the view's index, however deep it is (an offset reads and drops
 * every row before it, which made an export of 100,000 clients quadratic). Not for the
 * last-payment order, whose missing dates a row comparison cannot order.
 */
export async function clientsAfter(
  reader: DatabaseReader,
  ownerId: string,
  view: Pick<ClientListQuery, 'sort' | 'dir' | 'balance'>,
  after: ClientsCursor | null,
  limit: number,
): Promise<{ clients: Client[]; cursor: ClientsCursor | null }> {
  if (view.sort === 'lastPaymentOn') throw new Error('clientsAfter cannot order by last payment');
  const columns = keyColumns(view.sort);
  const direction = sql.raw(view.dir === 'desc' ? 'DESC' : 'ASC');
  const key = sql.join(columns.map((column) => sql.ref(column)));
  const past = after
    ? sql`(${key}) ${sql.raw(view.dir === 'desc' ? '<' : '>')} (${sql.join([...after])})`
    : sql`1 = 1`;
  const order = sql.join(
    columns.map((column) => sql`${sql.ref(column)} ${direction}`),
    sql`, `,
  );
  const rows = await reader.db
    .selectFrom('clients')
    .select([...CLIENT_COLUMNS, 'seq'])
    .where('owner_id', '=', ownerId)
    .where(balanceCondition(view.balance) as RawBuilder<boolean>)
    .where(past as RawBuilder<boolean>)
    .orderBy(order)
    .limit(limit)
    .execute();
  const last = rows.at(-1);
  const cursor =
    last && rows.length === limit
      ? columns.map(
          (column) => (last as unknown as Record<string, string | number | bigint>)[column] ?? '',
        )
      : null;
  return { clients: rows.map(toClient), cursor };
}

export async function getClient(
  reader: DatabaseReader,
  ownerId: string,
  id: string,
): Promise<Client | undefined> {
  const row = await selectOwnedClient(reader.db, ownerId, id);
  return row ? toClient(row) : undefined;
}

interface NewClientRow {
  id: string;
  ownerId: string;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  phoneDisplay: string;
  phoneValid: number;
  searchText: string;
  balancePaise: bigint;
  createdAt: string;
}

const insertClientQuery = compiledQuery('insert-client', (db, p: NewClientRow) =>
  db.insertInto('clients').values({
    id: p.id,
    owner_id: p.ownerId,
    fname: p.fname,
    lname: p.lname,
    email: p.email,
    phone: p.phone,
    phone_display: p.phoneDisplay,
    phone_valid: p.phoneValid,
    search_text: p.searchText,
    balance_paise: p.balancePaise,
    version: 1,
    created_at: p.createdAt,
    updated_at: p.createdAt,
  }),
);

/**
 * Fields that came through clientFieldsSchema hold a phone that passes the panel's rule: it
 * is stored as valid without parsing it again (35 µs a number with the full metadata).
 */
const CHECKED_PHONE = 1;

/** A new client; a balance other than 0 is its ledger's opening entry, dated today. */
export async function insertClient(
  trx: WriteTransaction,
  author: Author,
  fields: ClientFields,
): Promise<Client> {
  const ownerId = author.operator.id;
  const row: NewClientRow = {
    id: randomUUID(),
    ownerId,
    ...fields,
    phoneDisplay: formatPhone(fields.phone),
    phoneValid: CHECKED_PHONE,
    searchText: searchTextOf(fields),
    balancePaise: paiseFromAmount(fields.balance),
    createdAt: new Date().toISOString(),
  };
  await insertClientQuery(trx, row);
  await adjustTotals(trx, ownerId, null, row.balancePaise, author.today);
  if (row.balancePaise !== 0n) {
    await appendEntry(trx, {
      ownerId,
      clientId: row.id,
      kind: 'opening',
      amountPaise: row.balancePaise,
      balanceAfterPaise: row.balancePaise,
      note: '',
      on: author.today,
      createdBy: author.operator,
    });
  }
  return {
    id: row.id,
    ...fields,
    phoneDisplay: row.phoneDisplay,
    phoneValid: true,
    balance: formatAmount(row.balancePaise),
    version: 1,
    lastPaymentOn: null,
    createdAt: row.createdAt,
    updatedAt: row.createdAt,
  };
}

/**
 * Many new clients in the caller's transaction, as `insertClient` stores one (opening entries
 * dated today, totals and the day's change), but in a few statements instead of thousands.
 */
export async function insertClients(
  trx: WriteTransaction,
  author: Author,
  fieldsList: readonly ClientFields[],
  openingNote: string,
): Promise<number> {
  const ownerId = author.operator.id;
  const createdAt = new Date().toISOString();
  const rows = fieldsList.map((fields) => ({
    id: randomUUID(),
    owner_id: ownerId,
    fname: fields.fname,
    lname: fields.lname,
    email: fields.email,
    phone: fields.phone,
    phone_display: formatPhone(fields.phone),
    phone_valid: CHECKED_PHONE,
    search_text: searchTextOf(fields),
    balance_paise: paiseFromAmount(fields.balance),
    version: 1,
    created_at: createdAt,
    updated_at: createdAt,
  }));
  await insertRows(trx, 'clients', rows);
  await addNewClientsToTotals(
    trx,
    ownerId,
    rows.map((row) => row.balance_paise),
    author.today,
  );
  await insertEntries(
    trx,
    rows
      .filter((row) => row.balance_paise !== 0n)
      .map((row) => ({
        ownerId,
        clientId: row.id,
        kind: 'opening' as const,
        amountPaise: row.balance_paise,
        balanceAfterPaise: row.balance_paise,
        note: openingNote,
        on: author.today,
        createdBy: author.operator,
      })),
  );
  return rows.length;
}

/** The operator's clients by e-mail (folded to lower case) and by phone, to find repeats. */
export interface ExistingContacts {
  byEmail: Map<string, string>;
  byPhone: Map<string, string>;
}

export async function existingContacts(
  db: Kysely<DatabaseSchema>,
  ownerId: string,
): Promise<ExistingContacts> {
  const rows = await db
    .selectFrom('clients')
    .select(['id', 'email', 'phone'])
    .where('owner_id', '=', ownerId)
    .execute();
  const contacts: ExistingContacts = { byEmail: new Map(), byPhone: new Map() };
  for (const row of rows) {
    contacts.byEmail.set(row.email.toLowerCase(), row.id);
    contacts.byPhone.set(row.phone, row.id);
  }
  return contacts;
}

export type UpdateOutcome =
  | { kind: 'updated'; client: Client }
  | { kind: 'conflict'; current: Client }
  | { kind: 'not-found' };

/**
 * An edit; a changed balance is an adjustment entry (from → to), dated today. A phone sent is
 * checked (clientPatchSchema); one not sent stays as stored, marked as it was.
 */
export async function updateClient(
  trx: WriteTransaction,
  author: Author,
  id: string,
  patch: ClientPatch,
): Promise<UpdateOutcome> {
  const ownerId = author.operator.id;
  const current = await selectOwnedClient(trx, ownerId, id);
  if (!current) return { kind: 'not-found' };
  if (smallInteger(current.version) !== patch.version) {
    return { kind: 'conflict', current: toClient(current) };
  }
  const next = {
    fname: patch.fname ?? current.fname,
    lname: patch.lname ?? current.lname,
    email: patch.email ?? current.email,
    phone: patch.phone ?? current.phone,
  };
  const balancePaise =
    patch.balance === undefined
      ? exactInteger(current.balance_paise)
      : paiseFromAmount(patch.balance);
  // The version in WHERE makes a concurrent writer on PostgreSQL lose cleanly.
  const updated = await trx
    .updateTable('clients')
    .set({
      ...next,
      search_text: searchTextOf(next),
      ...(patch.phone === undefined
        ? {}
        : { phone_display: formatPhone(patch.phone), phone_valid: CHECKED_PHONE }),
      balance_paise: balancePaise,
      version: patch.version + 1,
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('version', '=', patch.version)
    .returning(CLIENT_COLUMNS)
    .executeTakeFirst();
  if (!updated) {
    const latest = await selectOwnedClient(trx, ownerId, id);
    return latest ? { kind: 'conflict', current: toClient(latest) } : { kind: 'not-found' };
  }
  const before = exactInteger(current.balance_paise);
  const after = exactInteger(updated.balance_paise);
  await adjustTotals(trx, ownerId, before, after, author.today);
  if (after !== before) {
    await appendEntry(trx, {
      ownerId,
      clientId: id,
      kind: 'adjustment',
      amountPaise: after - before,
      balanceAfterPaise: after,
      note: patch.balanceNote ?? '',
      on: author.today,
      createdBy: author.operator,
    });
  }
  return { kind: 'updated', client: toClient(updated) };
}

/** How long a deleted client can be restored. */
export const RESTORE_WINDOW_MS = 10 * 60 * 1000;

/** JSON that keeps 64-bit integers exact: as decimal text. */
function snapshot(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/**
 * Deletes a client and its entries, keeping both restorable for RESTORE_WINDOW_MS: the rows
 * go into `deleted_clients` as they were, in the same transaction.
 */
export async function deleteClient(
  trx: WriteTransaction,
  author: Author,
  id: string,
  now: Date = new Date(),
): Promise<boolean> {
  const balance = await removeClient(trx, author, id, now);
  if (balance === undefined) return false;
  // Its balance leaves the operator's total today; its entries go with it.
  await adjustTotals(trx, author.operator.id, balance, null, author.today);
  return true;
}

/**
 * Deletes several clients, as deleteClient does each, and answers the ids it deleted (in the
 * order given). Every client's rows are locked, in id order, before the operator's totals row,
 * as a single delete locks its client before the totals: taking the totals after each client
 * let two bulk deletes of the same clients in other orders deadlock on PostgreSQL.
 */
export async function deleteClients(
  trx: WriteTransaction,
  author: Author,
  ids: readonly string[],
  now: Date = new Date(),
): Promise<string[]> {
  const balances = new Map<string, bigint>();
  for (const id of [...new Set(ids)].sort()) {
    const balance = await removeClient(trx, author, id, now);
    if (balance !== undefined) balances.set(id, balance);
  }
  for (const balance of balances.values()) {
    await adjustTotals(trx, author.operator.id, balance, null, author.today);
  }
  return [...new Set(ids)].filter((id) => balances.has(id));
}

/** A client's rows moved to `deleted_clients`; its balance, or undefined if there is none. */
async function removeClient(
  trx: WriteTransaction,
  author: Author,
  id: string,
  now: Date,
): Promise<bigint | undefined> {
  const ownerId = author.operator.id;
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
  return exactInteger(client.balance_paise);
}

/** A row as `snapshot` wrote it: integers as numbers or decimal text. */
interface ClientSnapshot {
  id: string;
  owner_id: string;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  /** Absent from a client deleted before migration 0009 or 0013 (at most minutes before). */
  phone_display?: string | null;
  phone_valid?: string | number;
  balance_paise: string | number;
  version: string | number;
  search_text: string;
  last_payment_on: string | null;
  created_at: string;
  updated_at: string;
}

interface EntrySnapshot {
  id: string;
  owner_id: string;
  client_id: string;
  kind: string;
  amount_paise: string | number;
  balance_after_paise: string | number;
  note: string;
  on_date: string;
  created_at: string;
  created_by: string;
}

/** Rows per insert when entries come back: well under SQLite's limit of bound values. */
const RESTORE_BATCH = 500;

/**
 * Puts a client deleted less than RESTORE_WINDOW_MS ago back as it was, with its entries in
 * their order, and its balance back in the totals (booked today, as the delete was).
 * Undefined when there is nothing to restore: never deleted, another operator's, too late.
 */
export async function restoreClient(
  trx: WriteTransaction,
  author: Author,
  id: string,
  now: Date = new Date(),
): Promise<Client | undefined> {
  const client = await bringBack(trx, author, id, now);
  if (client) await bookRestored(trx, author, client);
  return client;
}

/**
 * Restores several clients, as restoreClient does each, and answers those it restored (in
 * the order given), locking every client's rows before the totals (see deleteClients).
 */
export async function restoreClients(
  trx: WriteTransaction,
  author: Author,
  ids: readonly string[],
  now: Date = new Date(),
): Promise<Client[]> {
  const restored = new Map<string, Client>();
  for (const id of [...new Set(ids)].sort()) {
    const client = await bringBack(trx, author, id, now);
    if (client) restored.set(id, client);
  }
  for (const client of restored.values()) await bookRestored(trx, author, client);
  return [...new Set(ids)].flatMap((id) => restored.get(id) ?? []);
}

/** Its balance back in the totals, booked today, as the delete was. */
async function bookRestored(trx: WriteTransaction, author: Author, client: Client): Promise<void> {
  await adjustTotals(trx, author.operator.id, null, paiseFromAmount(client.balance), author.today);
}

/** A deleted client's rows put back; its totals not yet (the caller books them). */
async function bringBack(
  trx: WriteTransaction,
  author: Author,
  id: string,
  now: Date,
): Promise<Client | undefined> {
  // Not an id (PostgreSQL would refuse one with a NUL byte in it): nothing to restore.
  if (!isClientId(id)) return undefined;
  const ownerId = author.operator.id;
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
  }));
  for (let i = 0; i < entries.length; i += RESTORE_BATCH) {
    await trx
      .insertInto('ledger_entries')
      .values(entries.slice(i, i + RESTORE_BATCH))
      .execute();
  }
  return toClient(restored);
}

/** Deleted clients past their restore window are removed for good. */
export async function purgeDeletedClients(
  trx: WriteTransaction,
  now: Date = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - RESTORE_WINDOW_MS).toISOString();
  const result = await trx
    .deleteFrom('deleted_clients')
    .where('deleted_at', '<=', cutoff)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
