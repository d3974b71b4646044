import type { Selectable } from 'kysely';
import type { Client } from '../../shared/client-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
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
  | 'created_at'
  | 'updated_at'
>;

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
  'created_at',
  'updated_at',
] as const;

const CLIENT_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Client ids are lower-case UUIDs; any other text names no client and reaches no query. */
export function isClientId(id: string): boolean {
  return CLIENT_ID_PATTERN.test(id);
}

/** A column of paise as the API's text; a number (SQLite's, up to 2^53) needs no bigint. */
function amountText(paise: DbInteger): string {
  return formatAmount(typeof paise === 'number' ? paise : exactInteger(paise));
}

export function toClient(row: ClientRow): Client {
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

export async function selectOwnedClient(
  source: ReadSource,
  ownerId: string,
  id: string,
): Promise<ClientRow | undefined> {
  if (!isClientId(id)) return undefined;
  const [row] = await ownedClientQuery(handleOf(source), { ownerId, id });
  return row;
}
