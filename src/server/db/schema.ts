import type { ColumnType, Generated } from 'kysely';
import type { DbInteger } from './integers.ts';

/**
 * A 64-bit integer column: read as a DbInteger (exact; see integers.ts), written only as a
 * bigint, so that no JavaScript number (bound as a double by SQLite) ever reaches it.
 */
type Int64Column = ColumnType<DbInteger, bigint, bigint>;
/** A small integer column (versions, counts, flags). */
type IntColumn = ColumnType<DbInteger, number, number>;

interface SettingsTable {
  id: number;
  allow_registrations: IntColumn;
  disable_balance_on_add: IntColumn;
  disable_balance_on_edit: IntColumn;
  /** 1 once the panel's first account has been made its administrator. */
  admin_claimed: IntColumn;
  /** 1 when every operator must sign in with a second factor (docs/decisions/0026). */
  require_two_factor: IntColumn;
  updated_at: string;
}

interface RateLimitsTable {
  key: string;
  count: IntColumn;
  window_start: ColumnType<DbInteger, number, number>;
}

export interface ClientsTable {
  seq: Generated<number>;
  id: string;
  owner_id: string;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  balance_paise: Int64Column;
  version: IntColumn;
  /** The four searchable fields, folded once (search-text.ts), in one column the index covers. */
  search_text: string;
  /** The date of the latest payment entry (YYYY-MM-DD); null: never paid. */
  last_payment_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** The phone as people read it ("98765 43210"), formatted when written; null: not yet. */
  phone_display: ColumnType<string | null, string | null | undefined, string | null>;
  /**
   * 1 when the phone passes the panel's rule (a real number, libphonenumber's full metadata),
   * 0 for one stored before that rule that fails it: set when the phone is written, so that
   * reads never parse (docs/decisions/0028-real-phone-numbers.md).
   */
  phone_valid: ColumnType<DbInteger, number | undefined, number>;
  /** Claims sent from the client's statement links, not yet confirmed or dismissed. */
  pending_claims: ColumnType<DbInteger, number | undefined, number>;
  /** The day of the latest reminder (YYYY-MM-DD); null: never reminded. */
  last_reminded_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** The due dates of the oldest and the latest unpaid amount (`dues`); null: none. */
  oldest_due_on: ColumnType<string | null, string | null | undefined, string | null>;
  latest_due_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** The client's open promise (neither kept nor replaced): its id, amount and day. */
  promise_id: ColumnType<string | null, string | null | undefined, string | null>;
  promise_amount_paise: ColumnType<DbInteger | null, bigint | null | undefined, bigint | null>;
  promise_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** The language of what the client reads ('en', 'hi'): reminders and the statement page. */
  language: ColumnType<string, string | undefined, string>;
  created_at: string;
  updated_at: string;
}

/** Each operator's client count and total owed, kept current by every write. */
interface OwnerTotalsTable {
  owner_id: string;
  client_count: Int64Column;
  total_paise: Int64Column;
  /** Clients whose balance is above 0, and what they owe. */
  owing_count: Int64Column;
  owing_paise: Int64Column;
  /** Clients whose balance is below 0 (in credit), and the credit held (a negative sum). */
  credit_count: Int64Column;
  credit_paise: Int64Column;
  /**
   * Raised by every write that changes the operator's sums by due date (`owner_dues`), in its
   * transaction: an ageing answered at one version holds until it moves or the day changes.
   */
  dues_version: ColumnType<DbInteger, bigint | undefined, bigint>;
  /**
   * Moves on with every write that can change where a client stands in a view without a
   * search (migration 0018's triggers); remembered list positions hold only at their version.
   */
  list_version: ColumnType<DbInteger, never, never>;
}

/** The better-auth user table, named here only so that clients can reference it. */
interface UserTable {
  id: string;
  email: string;
  name: string;
  emailVerified: Generated<number | boolean>;
  role: ColumnType<string | null, string | undefined, string>;
  /** better-auth's two-factor plugin: whether sign-in asks for a second factor. */
  twoFactorEnabled: ColumnType<number | boolean | null, never, number | boolean>;
  /** The language of the operator's pages ('en', 'hi'), on every device: ours, not better-auth's. */
  language: ColumnType<string, never, string>;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** better-auth's dates: ISO text on SQLite, timestamps on PostgreSQL. */
type AuthDate = Date | string;

/** better-auth's sessions, as much as the panel reads and ends them (never written but by it). */
interface SessionTable {
  id: string;
  userId: string;
  token: string;
  createdAt: AuthDate;
  updatedAt: AuthDate;
  expiresAt: AuthDate;
  ipAddress: string | null;
  userAgent: string | null;
  /** Ours: the book this session works in; null is the account's own (its id). */
  current_book_id: ColumnType<string | null, never, string | null>;
}

/** better-auth's accounts: an e-mail and password account holds the password's hash. */
interface AccountTable {
  id: string;
  userId: string;
  providerId: string;
  password: string | null;
  updatedAt: AuthDate;
}

/** better-auth's verifications: the reset links (as digests), keyed to the operator's id. */
interface VerificationTable {
  id: string;
  identifier: string;
  value: string;
  expiresAt: AuthDate;
}

/**
 * better-auth's two-factor plugin: one row per operator who began a setup. `verified` once a
 * code confirmed it; `secret` is encrypted with the auth secret, `backupCodes` is a JSON list
 * of SHA-256 digests (auth/two-factor.ts).
 */
interface TwoFactorTable {
  id: string;
  userId: string;
  secret: string;
  backupCodes: string;
  verified: number | boolean | null;
  /** The plugin's count of wrong codes in a row, and the lock it sets after 10. */
  failedVerificationCount: number | null;
  lockedUntil: AuthDate | null;
}

/** Operators who may not sign in (and whose sessions ended) until reactivated. */
interface OperatorDeactivationsTable {
  user_id: string;
  /** When (ISO 8601, UTC). */
  deactivated_at: string;
  /** The administrator who did it. */
  deactivated_by: string | null;
}

/** The ledger: every change of a balance, never updated. */
export interface LedgerEntriesTable {
  seq: Generated<number>;
  id: string;
  owner_id: string;
  client_id: string;
  kind: string;
  amount_paise: Int64Column;
  balance_after_paise: Int64Column;
  note: string;
  /** The date the money moved, YYYY-MM-DD. */
  on_date: string;
  created_at: string;
  created_by: string;
  /** When what it added is due; null for what took from the balance. */
  due_on: ColumnType<string | null, string | null | undefined, string | null>;
}

/** How an operator's total owed changed on each day: the chart adds these up, not the ledger. */
interface OwnerDailyDeltasTable {
  owner_id: string;
  on_date: string;
  delta_paise: Int64Column;
  /** Payments dated that day (a positive sum). */
  collected_paise: ColumnType<DbInteger, bigint | undefined, bigint>;
}

/** A client's unpaid amount due on a day; `prev_due_on` is its next older unpaid one. */
export interface DuesTable {
  client_id: string;
  due_on: string;
  owner_id: string;
  amount_paise: Int64Column;
  prev_due_on: string | null;
}

/** An operator's unpaid amounts by (due date, previous unpaid date of the same client: '' none). */
interface OwnerDuesTable {
  owner_id: string;
  due_on: string;
  prev_due_on: string;
  amount_paise: Int64Column;
  clients: Int64Column;
}

/** A client's promise to pay; broken is not stored (an open one past its day). */
export interface PromisesTable {
  id: string;
  owner_id: string;
  client_id: string;
  amount_paise: Int64Column;
  by_on: string;
  note: string;
  status: string;
  paid_paise: Int64Column;
  created_at: string;
  created_by: string;
  decided_at: string | null;
}

/** Clients dealt with on a day's collection round. */
interface CollectDoneTable {
  owner_id: string;
  on_date: string;
  client_id: string;
  action: string;
  done_at: string;
}

/**
 * A deleted client, restorable for a while: its row and its entries as they were, in JSON
 * (integers as decimal text), put back as they were on restore.
 */
interface DeletedClientsTable {
  client_id: string;
  owner_id: string;
  /** When it was deleted (ISO 8601, UTC): restorable until RESTORE_WINDOW_MS after. */
  deleted_at: string;
  client_row: string;
  entry_rows: string;
}

/** An operator's collection settings (a row once saved; the defaults until then). */
interface CollectionSettingsTable {
  owner_id: string;
  business_name: string;
  upi_id: string;
  payee_name: string;
  other_ways_to_pay: string;
  reminder_message: string;
  reminder_email_subject: string;
  payment_terms_days: ColumnType<DbInteger, number | undefined, number>;
  /** The reminder templates of languages other than English, JSON by language; '{}': built-in. */
  reminder_templates: ColumnType<string, string | undefined, string>;
  updated_at: string;
}

/** A client's statement link: the SHA-256 digest of its token (hex), never the token. */
export interface ShareLinksTable {
  id: string;
  owner_id: string;
  client_id: string;
  token_digest: string;
  created_at: string;
  expires_at: string;
  last_opened_at: string | null;
  revoked_at: string | null;
}

/** "I have paid", sent from a statement link; a balance changes only when it is confirmed. */
export interface PaymentClaimsTable {
  id: string;
  owner_id: string;
  client_id: string;
  link_id: string;
  amount_paise: Int64Column;
  reference: string;
  note: string;
  status: string;
  /** SHA-256 of the sender's address group. */
  from_digest: string;
  created_at: string;
  decided_at: string | null;
}

/** A reminder the operator sent from their own device. */
export interface RemindersTable {
  id: string;
  owner_id: string;
  client_id: string;
  sent_by: string;
  channel: string;
  sent_at: string;
  message: string;
}

/** A book: one business's clients and all that goes with them (issue 23). */
interface BooksTable {
  id: string;
  name: string;
  created_at: string;
}

interface BookMembersTable {
  book_id: string;
  user_id: string;
  role: string;
  joined_at: string;
  /** When its account last switched to the book or joined it: where a new sign-in starts. */
  last_used_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An invitation to a book: its token is stored only as a digest. */
interface BookInvitesTable {
  id: string;
  book_id: string;
  token_digest: string;
  role: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
}

/** What the members of a book did, appended in the same transaction as the change. */
export interface ActivityTable {
  seq: Generated<DbInteger>;
  book_id: string;
  at: string;
  actor_id: string;
  action: string;
  client_id: string | null;
  summary: string;
  /** ActivityDetails as JSON (migration 0022); null before it, and for lines with none. */
  details: string | null;
}

export interface DatabaseSchema {
  books: BooksTable;
  book_members: BookMembersTable;
  book_invites: BookInvitesTable;
  activity: ActivityTable;
  dues: DuesTable;
  owner_dues: OwnerDuesTable;
  promises: PromisesTable;
  collect_done: CollectDoneTable;
  collection_settings: CollectionSettingsTable;
  share_links: ShareLinksTable;
  payment_claims: PaymentClaimsTable;
  reminders: RemindersTable;
  deleted_clients: DeletedClientsTable;
  ledger_entries: LedgerEntriesTable;
  operator_deactivations: OperatorDeactivationsTable;
  owner_daily_deltas: OwnerDailyDeltasTable;
  settings: SettingsTable;
  rate_limits: RateLimitsTable;
  clients: ClientsTable;
  owner_totals: OwnerTotalsTable;
  user: UserTable;
  session: SessionTable;
  account: AccountTable;
  verification: VerificationTable;
  twoFactor: TwoFactorTable;
}
