import type { Generated } from 'kysely';

/** Integers that may exceed 2^53 arrive as bigint (SQLite) or string (PostgreSQL). */
export type BigIntColumn = bigint | number | string;

export interface SettingsTable {
  id: number;
  allow_registrations: number;
  disable_balance_on_add: number;
  disable_balance_on_edit: number;
  updated_at: string;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  window_start: BigIntColumn;
}

export interface ClientsTable {
  seq: Generated<number>;
  id: string;
  owner_id: string;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  balance_paise: BigIntColumn;
  version: number;
  created_at: string;
  updated_at: string;
}

/** Each operator's client count and total owed, kept current by every write. */
export interface OwnerTotalsTable {
  owner_id: string;
  client_count: BigIntColumn;
  total_paise: BigIntColumn;
}

/** The better-auth user table, named here only so that clients can reference it. */
export interface UserTable {
  id: string;
  email: string;
  name: string;
  emailVerified: Generated<number | boolean>;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export interface DatabaseSchema {
  settings: SettingsTable;
  rate_limits: RateLimitsTable;
  clients: ClientsTable;
  owner_totals: OwnerTotalsTable;
  user: UserTable;
}
