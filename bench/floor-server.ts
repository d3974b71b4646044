// The SQLite floor for `npm run bench`: GET /api/clients with the work the app does for the
// default list minus the framework — the same session check (cookie parsed, better-auth's
// signature verified, the app's session statement, which reads the session's book and the role
// in it), the app's own page and totals statements for that book, rows read as the app reads
// them (arrays, integers exact), each client worked out as the app does (its overdue amount and
// promise as of the panel's date), the same JSON — on plain
// node:http and better-sqlite3, so that the list's ratio to it measures what Fastify,
// validation and the app's layers cost. Never part of the app.
// Usage: floor-server <db file> <auth secret> <port>; sends 'ready' to its parent.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import { parse as parseCookies } from 'cookie';
import { sessionStatement } from './session-statements.ts';

const [file, secret, port] = process.argv.slice(2);
if (!file || !secret || !port) throw new Error('usage: floor-server <db file> <secret> <port>');
const authSecret: string = secret;

// Over http (the bench's PUBLIC_URL) better-auth's cookie has no `__Secure-` prefix.
const COOKIE = 'better-auth.session_token';
const DEFAULT_LIMIT = 100;

const db = new Database(file, { readonly: true });
db.pragma('busy_timeout = 5000');

// The statements below are the app's own (auth/session.ts, clients/clients-read.ts, as Kysely
// writes them), columns and all, so that SQLite does the same work for both.
const sessionQuery = db.prepare(sessionStatement());
/**
 * The page's statement for one limit: the app writes the limit into the text, as SQLite would
 * otherwise prepare the statement again on every run (src/server/db/inline-limits.ts).
 */
function pageStatement(limit: number) {
  const statement = db.prepare(
    `select "id", "fname", "lname", "email", "phone", "phone_display", "phone_valid",
     "balance_paise", "version", "last_payment_on", "pending_claims", "last_reminded_on",
     "oldest_due_on", "latest_due_on", "promise_id", "promise_amount_paise", "promise_by",
     "language", "created_at", "updated_at", CASE WHEN c.oldest_due_on < ?
    AND c.latest_due_on >= ? THEN (SELECT SUM(d.amount_paise) FROM dues d
      WHERE d.client_id = c.id AND d.due_on < ?) END as "overdue_paise"
   from "clients" as "c" where "owner_id" = ? and 1 = 1
   order by lname asc, "fname" asc, "seq" asc limit ${limit} offset ?`,
  );
  statement.safeIntegers(true);
  statement.raw(true);
  return statement;
}
const pageQueries = new Map([[DEFAULT_LIMIT, pageStatement(DEFAULT_LIMIT)]]);
function pageQuery(limit: number) {
  let statement = pageQueries.get(limit);
  if (!statement) {
    statement = pageStatement(limit);
    pageQueries.set(limit, statement);
  }
  return statement;
}
const totalsQuery = db.prepare(
  `select "client_count", "total_paise", "owing_count", "owing_paise", "credit_count",
     "credit_paise", "list_version" from "owner_totals" where "owner_id" = ?`,
);
// Integers are read as BigInt, as the app reads them, so that no amount is ever rounded; rows
// as arrays, as the app reads them (sqlite-connection.ts), each mapped straight to the answer.
for (const statement of [sessionQuery, totalsQuery]) {
  statement.safeIntegers(true);
  statement.raw(true);
}

// Where the session's book and the role in it are in its row (issue 23: the list is the book's).
const sessionColumns = sessionQuery.columns().map((column) => column.name);
const BOOK_ID = sessionColumns.indexOf('bookId');
const BOOK_ROLE = sessionColumns.indexOf('bookRole');

// Where each of the page's columns is in its rows.
const pageColumns = pageQuery(DEFAULT_LIMIT)
  .columns()
  .map((column) => column.name);
function column(name: string): number {
  const index = pageColumns.indexOf(name);
  if (index < 0) throw new Error(`the page has no column ${name}`);
  return index;
}
const ID = column('id');
const FNAME = column('fname');
const LNAME = column('lname');
const EMAIL = column('email');
const PHONE = column('phone');
const PHONE_DISPLAY = column('phone_display');
const PHONE_VALID = column('phone_valid');
const BALANCE_PAISE = column('balance_paise');
const VERSION = column('version');
const LAST_PAYMENT_ON = column('last_payment_on');
const PENDING_CLAIMS = column('pending_claims');
const LAST_REMINDED_ON = column('last_reminded_on');
const OLDEST_DUE_ON = column('oldest_due_on');
const LATEST_DUE_ON = column('latest_due_on');
const PROMISE_ID = column('promise_id');
const PROMISE_AMOUNT_PAISE = column('promise_amount_paise');
const PROMISE_BY = column('promise_by');
const LANGUAGE = column('language');
const CREATED_AT = column('created_at');
const UPDATED_AT = column('updated_at');
const OVERDUE_PAISE = column('overdue_paise');

// The panel's date, as the app works it out for every list request (ledger/panel-date.ts).
const dateFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: process.env.TIME_ZONE ?? 'Asia/Kolkata',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The session token if the cookie carries better-auth's HMAC-SHA256 signature of it. */
function verifiedToken(value: string): string | null {
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', authSecret).update(token).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/** Paise as the API writes amounts: "1234.50", "-20.00". */
function amount(paise: bigint): string {
  const negative = paise < 0n;
  const magnitude = negative ? -paise : paise;
  const rupees = magnitude / 100n;
  return `${negative ? '-' : ''}${rupees}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}

// The app refuses a session older than its maximum age (SESSION_MAX_HOURS, 12 by default).
const MAX_AGE_MS = 12 * 3600 * 1000;
/** The roles that may read a book's clients (src/shared/book-roles.ts): all of them. */
const READ_ROLES = new Set(['owner', 'manager', 'staff', 'viewer']);

/**
 * The book the session works in, if its member may read it (every role may). The app goes to the
 * account's first book when the session's is gone (a membership ended): an extra statement the
 * bench never causes, so the floor answers 403 there instead.
 */
function bookOf(cookieHeader: string | undefined): string | 401 | 403 {
  const value = cookieHeader ? parseCookies(cookieHeader)[COOKIE] : undefined;
  const token = value ? verifiedToken(value) : null;
  if (!token) return 401;
  // better-auth keeps dates in SQLite as ISO text, so text comparison orders them.
  const now = Date.now();
  const row = sessionQuery.get(
    token,
    new Date(now).toISOString(),
    new Date(now - MAX_AGE_MS).toISOString(),
  ) as unknown[] | undefined;
  if (!row) return 401;
  const book = row[BOOK_ID] as string | null;
  return book !== null && READ_ROLES.has(row[BOOK_ROLE] as string) ? book : 403;
}

function pageParameter(search: URLSearchParams, name: string, fallback: number): number {
  const value = Number(search.get(name) ?? fallback);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** A client as the app answers it on `today` (clients/client-rows.ts's toClient). */
function client(row: unknown[], today: string) {
  const oldest = row[OLDEST_DUE_ON] as string | null;
  const latest = row[LATEST_DUE_ON] as string | null;
  const pastDue = oldest !== null && oldest < today;
  const overdue = pastDue
    ? amount(
        (latest !== null && latest >= today ? row[OVERDUE_PAISE] : row[BALANCE_PAISE]) as bigint,
      )
    : '0.00';
  const promiseBy = row[PROMISE_BY] as string | null;
  return {
    id: row[ID],
    fname: row[FNAME],
    lname: row[LNAME],
    email: row[EMAIL],
    phone: row[PHONE],
    phoneDisplay: row[PHONE_DISPLAY] ?? row[PHONE],
    phoneValid: row[PHONE_VALID] !== 0n,
    balance: amount(row[BALANCE_PAISE] as bigint),
    version: Number(row[VERSION]),
    lastPaymentOn: row[LAST_PAYMENT_ON],
    pendingClaims: Number(row[PENDING_CLAIMS]),
    lastRemindedOn: row[LAST_REMINDED_ON],
    overdue,
    overdueSince: pastDue ? oldest : null,
    promise:
      row[PROMISE_ID] === null || promiseBy === null
        ? null
        : {
            id: row[PROMISE_ID],
            amount: amount(row[PROMISE_AMOUNT_PAISE] as bigint),
            by: promiseBy,
            status: promiseBy < today ? 'broken' : 'open',
          },
    language: row[LANGUAGE] === 'hi' ? 'hi' : 'en',
    createdAt: row[CREATED_AT],
    updatedAt: row[UPDATED_AT],
  };
}

const server = createServer((request, response) => {
  const book = bookOf(request.headers.cookie);
  if (typeof book === 'number') {
    response.writeHead(book, { 'content-type': 'application/json; charset=utf-8' });
    response.end(book === 401 ? '{"message":"Sign in to continue"}' : '{"code":"no-book"}');
    return;
  }
  const search = new URL(request.url ?? '/', 'http://floor').searchParams;
  const limit = pageParameter(search, 'limit', DEFAULT_LIMIT);
  const offset = pageParameter(search, 'offset', 0);
  const today = dateFormat.format(new Date());
  const rows = pageQuery(limit).all(today, today, today, book, offset) as unknown[][];
  const totals = totalsQuery.get(book) as bigint[] | undefined;
  const body = JSON.stringify({
    items: rows.map((row) => client(row, today)),
    total: Number(totals?.[0] ?? 0n),
    totalOwed: amount(totals?.[1] ?? 0n),
  });
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
});

server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));

// Exits (rather than being killed) on SIGTERM, so that a --cpu-prof profile is written.
process.once('SIGTERM', () => process.exit(0));
