// The clients as the list, the search, the export and the details page read them.
import { type RawBuilder, sql } from 'kysely';
import type {
  BalanceFilter,
  Client,
  ClientList,
  ClientListQuery,
  ClientSortField,
} from '../../shared/client-schema.ts';
import { addDays } from '../../shared/ledger-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { foldForSearch, phoneSearchDigits } from '../../shared/search-text.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import { type DbInteger, exactInteger } from '../db/integers.ts';
import { type DatabaseReader, handleOf, type ReadSource, readTogether } from '../db/reader.ts';
import {
  answerClient,
  CLIENT_COLUMNS,
  type ClientRow,
  overdueColumn,
  selectOwnedClient,
  toClient,
  toTotals,
} from './client-rows.ts';
import { listPositionsOf } from './list-positions.ts';
import { type OwnerTotalsRow, ownerTotalsQuery, totalsOf } from './running-totals.ts';

const SORT_COLUMNS: Record<
  ClientSortField,
  | 'lname'
  | 'fname'
  | 'email'
  | 'phone'
  | 'balance_paise'
  | 'created_at'
  | 'last_payment_on'
  | 'last_reminded_on'
  | 'overdue_order'
> = {
  lname: 'lname',
  fname: 'fname',
  email: 'email',
  phone: 'phone',
  balance: 'balance_paise',
  createdAt: 'created_at',
  lastPaymentOn: 'last_payment_on',
  lastRemindedOn: 'last_reminded_on',
  // Not a column: the amount overdue today, computed by the scan that sorts by it.
  overdue: 'overdue_order',
};

/**
 * Views the running totals and the sort indexes cannot serve: a search, picked ids, and the
 * filters and the sort that depend on today's date. Their matches are counted and sorted.
 */
export function needsScan(
  query: ClientListQuery & { ids?: readonly string[] | undefined },
): boolean {
  return Boolean(
    query.q ||
      query.ids ||
      query.notRemindedFor !== undefined ||
      query.overdue !== undefined ||
      query.promise !== undefined ||
      query.sort === 'overdue',
  );
}

/** The amount overdue today as an order: 0 unless something is past due. */
function overdueOrder(today: string, alias: string): RawBuilder<unknown> {
  const c = sql.raw(alias);
  return sql`CASE WHEN ${c}.oldest_due_on IS NULL OR ${c}.oldest_due_on >= ${today} THEN 0
    WHEN ${c}.latest_due_on < ${today} THEN ${c}.balance_paise ELSE ${c}.overdue_paise END`;
}

/** Days past due of the oldest overdue amount, as a range of its due date. */
function overdueCondition(query: ClientsQuery, alias = ''): RawBuilder<unknown> {
  if (query.overdue === undefined) return sql`1 = 1`;
  const today = todayOf(query);
  const column = sql.ref(`${alias}oldest_due_on`);
  const daysAgo = (days: number) => addDays(today, -days);
  switch (query.overdue) {
    case 'any':
      return sql`${column} < ${today}`;
    case '1-30':
      return sql`${column} < ${today} AND ${column} >= ${daysAgo(30)}`;
    case '31-60':
      return sql`${column} < ${daysAgo(30)} AND ${column} >= ${daysAgo(60)}`;
    case '61-90':
      return sql`${column} < ${daysAgo(60)} AND ${column} >= ${daysAgo(90)}`;
    default:
      return sql`${column} < ${daysAgo(90)}`;
  }
}

/** due: an open promise due today or before; broken: due before today (and not kept). */
function promiseCondition(query: ClientsQuery, alias = ''): RawBuilder<unknown> {
  if (query.promise === undefined) return sql`1 = 1`;
  const column = sql.ref(`${alias}promise_by`);
  const today = todayOf(query);
  return query.promise === 'due' ? sql`${column} <= ${today}` : sql`${column} < ${today}`;
}

function todayOf(query: { today?: string | undefined }): string {
  if (!query.today) throw new Error('This view needs the panel date (today)');
  return query.today;
}

/** Sorts by a day that may be missing (never paid, never reminded). */
export function sortsByMissingDay(sort: ClientSortField): boolean {
  return sort === 'lastPaymentOn' || sort === 'lastRemindedOn';
}

/**
 * How a sort orders missing values: never having paid (or been reminded) counts as the
 * longest ago, on both databases (SQLite puts NULL first by default, PostgreSQL last).
 */
function nullsOrder(sort: ClientSortField, dir: 'asc' | 'desc'): string {
  if (!sortsByMissingDay(sort)) return '';
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

/**
 * The SQL that keeps clients not reminded lately: never reminded, or last reminded more than
 * `notRemindedFor` days before `today` (the panel's date, which the route knows).
 */
function reminderCondition(query: ClientsQuery, alias = ''): RawBuilder<unknown> {
  if (query.notRemindedFor === undefined) return sql`1 = 1`;
  const cutoff = addDays(todayOf(query), -query.notRemindedFor);
  const column = sql.ref(`${alias}last_reminded_on`);
  return sql`(${column} IS NULL OR ${column} < ${cutoff})`;
}

/** Every condition of a view but the search, over clients `c`. */
function viewConditions(query: ClientsQuery): RawBuilder<unknown> {
  return sql`${balanceCondition(query.balance, 'c.')} AND ${reminderCondition(query, 'c.')}
    AND ${overdueCondition(query, 'c.')} AND ${promiseCondition(query, 'c.')}`;
}

type PageParams = { ownerId: string; limit: number; offset: number; today: string };
const pageQueries = new Map<string, ReturnType<typeof buildPageQuery>>();

function buildPageQuery(
  sort: ClientSortField,
  dir: 'asc' | 'desc',
  filter: BalanceFilter | undefined,
  deferred: boolean,
) {
  const shape = `${sort}:${dir}:${filter ?? 'all'}:${deferred ? 'deferred' : 'direct'}`;
  return compiledQuery(`client-page:${shape}`, (db, p: PageParams) => {
    if (deferred) return deferredPageSql({ sort, dir, balance: filter }, p);
    let page = db
      .selectFrom('clients as c')
      .select([...CLIENT_COLUMNS, overdueColumn(p.today).as('overdue_paise')])
      .where('owner_id', '=', p.ownerId)
      .where(balanceCondition(filter) as RawBuilder<boolean>)
      .orderBy(sql.raw(`${SORT_COLUMNS[sort]} ${dir}${nullsOrder(sort, dir)}`));
    if (sort === 'lname') page = page.orderBy('fname', dir);
    return page.orderBy('seq', dir).limit(p.limit).offset(p.offset);
  });
}

function pageQuery(query: ClientListQuery) {
  const { sort, dir, balance } = query;
  const deferred = query.offset >= DEFERRED_JOIN_OFFSET;
  const key = `${sort}:${dir}:${balance ?? 'all'}:${deferred}`;
  let compiled = pageQueries.get(key);
  if (!compiled) {
    compiled = buildPageQuery(sort, dir, balance, deferred);
    pageQueries.set(key, compiled);
  }
  return compiled;
}

function orderBy(
  query: Pick<ClientListQuery, 'sort' | 'dir'> & { today?: string | undefined },
  alias = 'c.',
): RawBuilder<unknown> {
  const direction = sql.raw(query.dir === 'desc' ? 'DESC' : 'ASC');
  if (query.sort === 'overdue') {
    const seq = sql.ref(`${alias}seq`);
    return sql`${overdueOrder(todayOf(query), alias.replace('.', '') || 'clients')} ${direction}, ${seq} ${direction}`;
  }
  const column = sql.ref(`${alias}${SORT_COLUMNS[query.sort]}`);
  const nulls = sql.raw(nullsOrder(query.sort, query.dir));
  const fname = sql.ref(`${alias}fname`);
  const seq = sql.ref(`${alias}seq`);
  return query.sort === 'lname'
    ? sql`${column} ${direction}, ${fname} ${direction}, ${seq} ${direction}`
    : sql`${column} ${direction}${nulls}, ${seq} ${direction}`;
}

/**
 * From this offset on, a page of the list is a deferred join: its clients' keys are read off
 * the sort index alone (each index ends in seq, the row's key), walking past the offset
 * without touching a row, then only the page's rows are read. Below it the walk is short and
 * one plain query costs less.
 */
export const DEFERRED_JOIN_OFFSET = 1_000;

/**
 * Past this offset the walk along the index takes milliseconds (about 26 ns an entry, 5 ms
 * here on a quiet core): such a page goes to a read worker on SQLite, so as not to hold the
 * event loop that long. Shallower pages run inline: on two cores shared with the load, the
 * trip to a worker and back cost more than it saved (decision 0034).
 */
export const WORKER_OFFSET = 200_000;

/** A row of a deep page: a client, its key, and the list version it was read at. */
type PositionedRow = ClientRow & { seq: DbInteger; list_version?: DbInteger | null };

/**
 * The deferred join: the page's keys off the sort index, then only the page's rows, with the
 * operator's list version read in the same statement (the version of what was walked).
 */
function deferredPageSql(
  view: Pick<ClientListQuery, 'sort' | 'dir' | 'balance'>,
  p: PageParams,
): RawBuilder<PositionedRow> {
  const columns = sql.join(CLIENT_COLUMNS.map((column) => sql.ref(`c.${column}`)));
  return sql<PositionedRow>`SELECT ${columns}, ${overdueColumn(p.today)} AS overdue_paise,
      c.seq AS seq,
      (SELECT list_version FROM owner_totals WHERE owner_id = ${p.ownerId}) AS list_version
    FROM (
      SELECT seq FROM clients WHERE owner_id = ${p.ownerId} AND ${balanceCondition(view.balance)}
      ORDER BY ${orderBy(view, '')} LIMIT ${p.limit} OFFSET ${p.offset}
    ) p JOIN clients c ON c.seq = p.seq
    ORDER BY ${orderBy(view)}`;
}

/** Sorts whose index a remembered position can be sought in (no missing values to order). */
function remembersPositions(sort: ClientSortField): boolean {
  return !sortsByMissingDay(sort) && sort !== 'overdue';
}

/** A client's key along a view's sort index. */
function keyOf(sort: ClientSortField, row: PositionedRow): unknown[] {
  const values = row as unknown as Record<string, unknown>;
  return keyColumns(sort).map((column) => values[column]);
}

type FromParams = PageParams & { version: DbInteger; k1: unknown; k2: unknown; k3: unknown };
const pagesFrom = new Map<string, ReturnType<typeof buildPageFrom>>();

/**
 * A deep page read from a remembered position: the index is sought to the client there and
 * walked only `offset` further (less than DEFERRED_JOIN_OFFSET, so the rows are read as they are
 * walked, as a shallow page's are), if the operator's list version is still the one the
 * position was read at. Once a write has moved it on, the statement answers nothing, in the
 * same snapshot as the page, and stops before walking: SQLite keeps a CROSS JOIN's order (the
 * totals row first), and PostgreSQL, which may reorder joins, checks the subquery that names
 * no outer row once, before the scan.
 */
function buildPageFrom(
  sort: ClientSortField,
  dir: 'asc' | 'desc',
  filter: BalanceFilter | undefined,
) {
  const view = { sort, dir, balance: filter };
  const keys = keyColumns(sort);
  return compiledQuery(
    `client-page-from:${sort}:${dir}:${filter ?? 'all'}`,
    (_db, p: FromParams) => {
      const columns = sql.join(CLIENT_COLUMNS.map((column) => sql.ref(`c.${column}`)));
      const key = sql.join(keys.map((column) => sql.ref(`c.${column}`)));
      const from = sql.join([p.k1, p.k2, p.k3].slice(0, keys.length));
      const onOrAfter = sql.raw(dir === 'desc' ? '<=' : '>=');
      return sql<PositionedRow>`SELECT ${columns}, ${overdueColumn(p.today)} AS overdue_paise,
          c.seq AS seq
        FROM owner_totals g CROSS JOIN clients c
        WHERE g.owner_id = ${p.ownerId} AND g.list_version = ${p.version}
          AND (SELECT list_version FROM owner_totals WHERE owner_id = ${p.ownerId}) = ${p.version}
          AND c.owner_id = ${p.ownerId} AND ${balanceCondition(filter, 'c.')}
          AND (${key}) ${onOrAfter} (${from})
        ORDER BY ${orderBy(view)} LIMIT ${p.limit} OFFSET ${p.offset}`;
    },
  );
}

function pageFrom(query: ClientListQuery) {
  const key = `${query.sort}:${query.dir}:${query.balance ?? 'all'}`;
  let compiled = pagesFrom.get(key);
  if (!compiled) {
    compiled = buildPageFrom(query.sort, query.dir, query.balance);
    pagesFrom.set(key, compiled);
  }
  return compiled;
}

/**
 * A page from DEFERRED_JOIN_OFFSET on: from the nearest position remembered at the operator's
 * current list version when there is one, else by walking the index from its start; either
 * way the position of the page's first client is remembered for the next such page.
 */
async function deepPage(
  reader: DatabaseReader,
  ownerId: string,
  query: ClientsQuery,
): Promise<ClientList> {
  const { today, limit, offset } = query;
  const [totals] = await ownerTotalsQuery(reader.db, { ownerId });
  const positions = listPositionsOf(reader.db);
  const view = `${ownerId}:${query.sort}:${query.dir}:${query.balance ?? 'all'}`;
  const remembers = remembersPositions(query.sort);
  const nearest =
    totals && remembers ? positions.nearest(view, String(totals.list_version), offset) : undefined;
  // Far from any: one walk from the start, which remembers where this page begins.
  const from = nearest && offset - nearest.position < DEFERRED_JOIN_OFFSET ? nearest : undefined;
  let rows: PositionedRow[] = [];
  let version: DbInteger | null | undefined;
  if (totals && from) {
    const [k1, k2, k3] = from.key;
    rows = await pageFrom(query)(reader.db, {
      ownerId,
      version: totals.list_version,
      k1,
      k2,
      k3,
      limit,
      offset: offset - from.position,
      today,
    });
    version = totals.list_version;
  }
  // Nothing from there: a write has moved the view on since (or the page is past its end).
  if (rows.length === 0) {
    rows = (await pageQuery(query)(reader.db, {
      ownerId,
      limit,
      offset,
      today,
    })) as PositionedRow[];
    version = rows[0]?.list_version;
  }
  const first = rows[0];
  if (first && remembers && version !== undefined && version !== null) {
    positions.remember(view, String(version), { position: offset, key: keyOf(query.sort, first) });
  }
  return { items: rows.map((row) => toClient(row, today)), ...totalsOf(totals, query.balance) };
}

/** A page past WORKER_OFFSET with the list's totals, in one snapshot, on a read worker. */
async function pageOnWorker(
  reader: DatabaseReader,
  ownerId: string,
  query: ClientListQuery,
  today: string,
): Promise<ClientList> {
  const [rows, [totals]] = await readTogether<[ClientRow[], OwnerTotalsRow[]]>(reader, [
    deferredPageSql(query, { ownerId, limit: query.limit, offset: query.offset, today }),
    sql`SELECT client_count, total_paise, owing_count, owing_paise, credit_count, credit_paise
      FROM owner_totals WHERE owner_id = ${ownerId}`,
  ]);
  return { items: rows.map((row) => toClient(row, today)), ...totalsOf(totals, query.balance) };
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
  query: ClientsQuery,
  needles: string[],
): Promise<ClientList> {
  // FTS5 phrases match their text literally: quotes doubled, nothing else special.
  const phrase = needles.map((needle) => `"${needle.replaceAll('"', '""')}"`).join(' OR ');
  const today = todayOf(query);
  const matches = sql`clients_search s CROSS JOIN clients c ON c.seq = s.rowid
    WHERE clients_search MATCH ${phrase} AND c.owner_id = ${ownerId} AND ${viewConditions(query)}`;
  const pageEnd = query.offset + query.limit;
  const [firstRows] = await readTogether<[ClientRow[]]>(reader, [
    sql`SELECT * FROM (SELECT c.*, ${overdueColumn(today)} AS overdue_paise FROM ${matches}) c
      ORDER BY ${orderBy(query)} LIMIT ${Math.max(SMALL_MATCH_SET + 1, pageEnd)}`,
  ]);
  const items = firstRows.slice(query.offset, pageEnd).map((row) => toClient(row, today));
  if (firstRows.length <= SMALL_MATCH_SET) {
    const total = firstRows.reduce((sum, row) => sum + exactInteger(row.balance_paise), 0n);
    return { items, total: firstRows.length, totalOwed: formatAmount(total) };
  }
  const [totals] = await readTogether<[{ count: DbInteger; total: DbInteger }[]]>(reader, [
    sql`SELECT COUNT(*) AS count, COALESCE(SUM(c.balance_paise), 0) AS total FROM ${matches}`,
  ]);
  return { items, ...toTotals(totals[0]) };
}

/**
 * A list query, optionally narrowed to clients picked by id (an export of a selection), with
 * the panel's date when it filters by reminders.
 */
export type ClientsQuery = ClientListQuery & {
  ids?: readonly string[] | undefined;
  /** The panel's date: overdue figures, and the filters by date, are as of it. */
  today: string;
};

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
  const today = todayOf(query);
  const matches = sql`clients c WHERE c.owner_id = ${ownerId} AND ${idsCondition(query.ids)}
    AND ${contains} AND ${viewConditions(query)}`;
  // Matches first, then sorted: left to itself, PostgreSQL walks a whole sort index and
  // filters every client (69 ms for a broad search of 100,000) instead of using the trigram
  // index and sorting the 5,000 matches (15 ms).
  const [page] = await readTogether<
    [(ClientRow & { match_count: DbInteger; match_total: DbInteger })[]]
  >(reader, [
    sql`WITH m AS MATERIALIZED (SELECT c.*, ${overdueColumn(today)} AS overdue_paise
        FROM ${matches})
      SELECT c.*, COUNT(*) OVER () AS match_count, SUM(c.balance_paise) OVER () AS match_total
      FROM m c ORDER BY ${orderBy(query)}
      LIMIT ${query.limit} OFFSET ${query.offset}`,
  ]);
  const first = page[0];
  if (first) {
    return {
      items: page.map((row) => toClient(row, today)),
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
  // Filters by date have no running totals: their matches are counted as a search's are.
  if (needsScan(query)) {
    const needles = query.q ? searchNeedles(query.q) : [];
    const indexed =
      needles.length > 0 && needles.every((needle) => [...needle].length >= MIN_INDEXED_SEARCH);
    // Picked ids (at most 500) are found by their key: no search index is needed for them.
    return reader.dialect === 'sqlite' && indexed && !query.ids
      ? searchThroughIndex(reader, ownerId, query, needles)
      : searchByScan(reader, ownerId, query, needles);
  }
  const { today } = query;
  if (query.offset >= WORKER_OFFSET && reader.readWorkers) {
    return pageOnWorker(reader, ownerId, query, today);
  }
  if (query.offset >= DEFERRED_JOIN_OFFSET) return deepPage(reader, ownerId, query);
  const [rows, [totals]] = await Promise.all([
    pageQuery(query)(reader.db, { ownerId, limit: query.limit, offset: query.offset, today }),
    ownerTotalsQuery(reader.db, { ownerId }),
  ]);
  return { items: rows.map((row) => toClient(row, today)), ...totalsOf(totals, query.balance) };
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
  view: Pick<ClientListQuery, 'sort' | 'dir' | 'balance'> & { today: string },
  after: ClientsCursor | null,
  limit: number,
): Promise<{ clients: Client[]; cursor: ClientsCursor | null }> {
  if (sortsByMissingDay(view.sort)) throw new Error('clientsAfter cannot order by a missing day');
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
    .selectFrom('clients as c')
    .select([...CLIENT_COLUMNS, 'seq', overdueColumn(view.today).as('overdue_paise')])
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
  return { clients: rows.map((row) => toClient(row, view.today)), cursor };
}

export async function getClient(
  reader: DatabaseReader,
  ownerId: string,
  id: string,
  today: string,
): Promise<Client | undefined> {
  const row = await selectOwnedClient(reader, ownerId, id);
  return row ? answerClient(reader, row, today) : undefined;
}

/** The operator's clients by e-mail (folded to lower case) and by phone, to find repeats. */
export interface ExistingContacts {
  byEmail: Map<string, string>;
  byPhone: Map<string, string>;
}

export async function existingContacts(
  source: ReadSource,
  ownerId: string,
): Promise<ExistingContacts> {
  const rows = await handleOf(source)
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
