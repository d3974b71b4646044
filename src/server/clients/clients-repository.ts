import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type Kysely, type Selectable, sql } from 'kysely';
import type {
  Client,
  ClientFields,
  ClientList,
  ClientListQuery,
  ClientPatch,
  ClientSortField,
} from '../../shared/client-schema.ts';
import { amountToPaise, formatAmount } from '../../shared/money.ts';
import { runCompiled } from '../db/compiled-queries.ts';
import type { Database } from '../db/database.ts';
import type { ClientsTable, DatabaseSchema } from '../db/schema.ts';

type ClientRow = Omit<Selectable<ClientsTable>, 'seq'>;

const SORT_COLUMNS: Record<
  ClientSortField,
  'lname' | 'fname' | 'email' | 'phone' | 'balance_paise' | 'created_at'
> = {
  lname: 'lname',
  fname: 'fname',
  email: 'email',
  phone: 'phone',
  balance: 'balance_paise',
  createdAt: 'created_at',
};

function toClient(row: ClientRow & { seq?: unknown }): Client {
  return {
    id: row.id,
    fname: row.fname,
    lname: row.lname,
    email: row.email,
    phone: row.phone,
    balance: formatAmount(Number(row.balance_paise)),
    version: Number(row.version),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Escapes LIKE's wildcards so that the search text matches literally. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function matchesSearch(q: string) {
  const pattern = likePattern(q);
  return (eb: ExpressionBuilder<DatabaseSchema, 'clients'>) =>
    eb.or(
      (['fname', 'lname', 'email', 'phone'] as const).map(
        (column) => sql<boolean>`lower(${eb.ref(column)}) LIKE ${pattern} ESCAPE '\\'`,
      ),
    );
}

/** Count and sum, read as text because a total may pass 2^53 paise. */
function toTotals(row: { count: string; total: string } | undefined): {
  total: number;
  totalOwed: string;
} {
  return {
    total: row ? Number(row.count) : 0,
    totalOwed: formatAmount(row ? BigInt(row.total) : 0n),
  };
}

/** One operator's client by id; another operator's client is not found. */
function selectOwnedClient(db: Kysely<DatabaseSchema>, ownerId: string, id: string) {
  return db
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
}

async function readTotals(
  db: Kysely<DatabaseSchema>,
  ownerId: string,
): Promise<{ total: number; totalOwed: string }> {
  const [row] = await runCompiled<{ count: string; total: string }>(
    db,
    'owner-totals',
    () =>
      db
        .selectFrom('owner_totals')
        .select([
          sql<string>`CAST(client_count AS TEXT)`.as('count'),
          sql<string>`CAST(total_paise AS TEXT)`.as('total'),
        ])
        .where('owner_id', '=', ownerId)
        .compile(),
    [ownerId],
  );
  return toTotals(row);
}

async function searchTotals(
  db: Kysely<DatabaseSchema>,
  ownerId: string,
  q: string,
): Promise<{ total: number; totalOwed: string }> {
  const row = await db
    .selectFrom('clients')
    .select([
      sql<string>`CAST(COUNT(*) AS TEXT)`.as('count'),
      sql<string>`CAST(COALESCE(SUM(balance_paise), 0) AS TEXT)`.as('total'),
    ])
    .where('owner_id', '=', ownerId)
    .where(matchesSearch(q))
    .executeTakeFirstOrThrow();
  return toTotals(row);
}

const CLIENT_COLUMNS = [
  'id',
  'owner_id',
  'fname',
  'lname',
  'email',
  'phone',
  'balance_paise',
  'version',
  'created_at',
  'updated_at',
] as const;

/** The trigram index finds substrings of 3 or more characters. */
const MIN_INDEXED_SEARCH = 3;

function usesSearchIndex(database: Database, q: string): boolean {
  return database.dialect === 'sqlite' && [...q].length >= MIN_INDEXED_SEARCH;
}

/** An FTS5 phrase matching q literally (quotes doubled, nothing else special). */
function searchPhrase(q: string): string {
  return `"${q.replaceAll('"', '""')}"`;
}

function orderBy(query: ClientListQuery) {
  const direction = sql.raw(query.dir === 'desc' ? 'DESC' : 'ASC');
  const column = sql.ref(`c.${SORT_COLUMNS[query.sort]}`);
  return query.sort === 'lname'
    ? sql`${column} ${direction}, c.fname ${direction}, c.seq ${direction}`
    : sql`${column} ${direction}, c.seq ${direction}`;
}

/** Up to this many matches, one query fetches them all and the totals are summed here. */
const SMALL_MATCH_SET = 200;

/**
 * Search through the trigram index. One query fetches the matches in order, up to
 * SMALL_MATCH_SET + 1: when that is all of them, the totals are summed from those rows and
 * the page is cut from them (one index lookup in all). Broader searches count and sum in a
 * second query, and sort only their matches (docs/decisions/0006-search-index.md).
 */
async function searchClients(
  database: Database,
  ownerId: string,
  query: ClientListQuery & { q: string },
): Promise<ClientList> {
  const { db } = database;
  const phrase = searchPhrase(query.q);
  const matches = sql`clients_search s CROSS JOIN clients c ON c.seq = s.rowid
    WHERE clients_search MATCH ${phrase} AND c.owner_id = ${ownerId}`;
  const pageEnd = query.offset + query.limit;
  const firstRows = await sql<ClientRow>`SELECT c.* FROM ${matches} ORDER BY ${orderBy(query)}
    LIMIT ${Math.max(SMALL_MATCH_SET + 1, pageEnd)}`.execute(db);
  if (firstRows.rows.length <= SMALL_MATCH_SET) {
    // Every match is here; at most 200 balances of at most 10^12 paise sum exactly.
    const total = firstRows.rows.reduce((sum, row) => sum + Number(row.balance_paise), 0);
    return {
      items: firstRows.rows.slice(query.offset, pageEnd).map(toClient),
      total: firstRows.rows.length,
      totalOwed: formatAmount(total),
    };
  }
  const totals = await sql<{ count: string; total: string }>`SELECT CAST(COUNT(*) AS TEXT) AS count,
    CAST(COALESCE(SUM(c.balance_paise), 0) AS TEXT) AS total FROM ${matches}`.execute(db);
  return {
    items: firstRows.rows.slice(query.offset, pageEnd).map(toClient),
    ...toTotals(totals.rows[0]),
  };
}

export async function listClients(
  database: Database,
  ownerId: string,
  query: ClientListQuery,
): Promise<ClientList> {
  const { db } = database;
  if (query.q && usesSearchIndex(database, query.q)) {
    return searchClients(database, ownerId, { ...query, q: query.q });
  }
  const column = SORT_COLUMNS[query.sort];
  const buildPage = () => {
    let page = db.selectFrom('clients').select(CLIENT_COLUMNS).where('owner_id', '=', ownerId);
    if (query.q) page = page.where(matchesSearch(query.q));
    page = page.orderBy(column, query.dir);
    if (query.sort === 'lname') page = page.orderBy('fname', query.dir);
    return page.orderBy('seq', query.dir).limit(query.limit).offset(query.offset);
  };

  const [rows, totals] = await Promise.all([
    query.q
      ? buildPage().execute()
      : runCompiled<ClientRow>(
          db,
          `client-page:${query.sort}:${query.dir}`,
          () => buildPage().compile(),
          [ownerId, query.limit, query.offset],
        ),
    query.q ? searchTotals(db, ownerId, query.q) : readTotals(db, ownerId),
  ]);
  return { items: rows.map(toClient), ...totals };
}

export async function getClient(
  database: Database,
  ownerId: string,
  id: string,
): Promise<Client | undefined> {
  const row = await selectOwnedClient(database.db, ownerId, id);
  return row ? toClient(row) : undefined;
}

/** Adds to an operator's running count and total, in the caller's transaction. */
async function adjustTotals(
  trx: Kysely<DatabaseSchema>,
  ownerId: string,
  countDelta: number,
  paiseDelta: number,
): Promise<void> {
  await runCompiled(
    trx,
    'adjust-owner-totals',
    () =>
      trx
        .insertInto('owner_totals')
        .values({ owner_id: ownerId, client_count: countDelta, total_paise: paiseDelta })
        .onConflict((oc) =>
          oc.column('owner_id').doUpdateSet({
            client_count: sql`owner_totals.client_count + ${countDelta}`,
            total_paise: sql`owner_totals.total_paise + ${paiseDelta}`,
          }),
        )
        .compile(),
    [ownerId, countDelta, paiseDelta, countDelta, paiseDelta],
  );
}

export async function createClient(
  database: Database,
  ownerId: string,
  fields: ClientFields,
): Promise<Client> {
  const now = new Date().toISOString();
  const row = {
    id: randomUUID(),
    owner_id: ownerId,
    fname: fields.fname,
    lname: fields.lname,
    email: fields.email,
    phone: fields.phone,
    balance_paise: amountToPaise(fields.balance),
    version: 1,
    created_at: now,
    updated_at: now,
  };
  await database.write(async (trx) => {
    // The statement's parameters are the row's values, in the row's key order.
    await runCompiled(
      trx,
      'insert-client',
      () => trx.insertInto('clients').values(row).compile(),
      Object.values(row),
    );
    await adjustTotals(trx, ownerId, 1, Number(row.balance_paise));
  });
  return toClient(row);
}

export type UpdateOutcome =
  | { kind: 'updated'; client: Client }
  | { kind: 'conflict'; current: Client }
  | { kind: 'not-found' };

export async function updateClient(
  database: Database,
  ownerId: string,
  id: string,
  patch: ClientPatch,
): Promise<UpdateOutcome> {
  return database.write(async (trx): Promise<UpdateOutcome> => {
    const current = await selectOwnedClient(trx, ownerId, id);
    if (!current) return { kind: 'not-found' };
    if (Number(current.version) !== patch.version) {
      return { kind: 'conflict', current: toClient(current) };
    }
    const changes: Partial<ClientRow> = {};
    if (patch.fname !== undefined) changes.fname = patch.fname;
    if (patch.lname !== undefined) changes.lname = patch.lname;
    if (patch.email !== undefined) changes.email = patch.email;
    if (patch.phone !== undefined) changes.phone = patch.phone;
    if (patch.balance !== undefined) changes.balance_paise = amountToPaise(patch.balance);
    const updatedAt = new Date().toISOString();
    // The version in WHERE makes a concurrent writer on PostgreSQL lose cleanly.
    const updated = await trx
      .updateTable('clients')
      .set({ ...changes, version: patch.version + 1, updated_at: updatedAt })
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .where('version', '=', patch.version)
      .returningAll()
      .executeTakeFirst();
    if (!updated) {
      const latest = await selectOwnedClient(trx, ownerId, id);
      return latest ? { kind: 'conflict', current: toClient(latest) } : { kind: 'not-found' };
    }
    const delta = Number(updated.balance_paise) - Number(current.balance_paise);
    if (delta !== 0) await adjustTotals(trx, ownerId, 0, delta);
    return { kind: 'updated', client: toClient(updated) };
  });
}

export async function deleteClient(
  database: Database,
  ownerId: string,
  id: string,
): Promise<boolean> {
  return database.write(async (trx) => {
    const deleted = await trx
      .deleteFrom('clients')
      .where('id', '=', id)
      .where('owner_id', '=', ownerId)
      .returning(['balance_paise'])
      .executeTakeFirst();
    if (!deleted) return false;
    await adjustTotals(trx, ownerId, -1, -Number(deleted.balance_paise));
    return true;
  });
}
