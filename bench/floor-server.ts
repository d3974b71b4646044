// The SQLite floor for `npm run bench`: GET /api/clients with the work the app does for the
// default list minus the framework — the same session check (cookie parsed, better-auth's
// signature verified, the session query), the same page and totals queries, integers read
// exactly, the same JSON — on plain node:http and better-sqlite3, so that the list's ratio to
// it measures what Fastify, validation and the app's layers cost. Never part of the app.
// Usage: floor-server <db file> <auth secret> <port>; sends 'ready' to its parent.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import { parse as parseCookies } from 'cookie';

const [file, secret, port] = process.argv.slice(2);
if (!file || !secret || !port) throw new Error('usage: floor-server <db file> <secret> <port>');
const authSecret: string = secret;

// Over http (the bench's PUBLIC_URL) better-auth's cookie has no `__Secure-` prefix.
const COOKIE = 'better-auth.session_token';
const DEFAULT_LIMIT = 100;

const db = new Database(file, { readonly: true });
db.pragma('busy_timeout = 5000');

// The statements below are the app's own (auth/session.ts, clients/clients-read.ts), columns and
// all, so that SQLite does the same work for both.
const sessionQuery = db.prepare(
  `SELECT u.id AS id, u.email AS email, u.role AS role, u.language AS language, s.id AS "sessionId"
   FROM session s JOIN "user" u ON u.id = s."userId" WHERE s.token = ? AND s."expiresAt" > ?`,
);
const pageQuery = db.prepare(
  `SELECT id, fname, lname, email, phone, phone_display, phone_valid, balance_paise, version,
     last_payment_on, pending_claims, last_reminded_on, oldest_due_on, promise_id, language,
     created_at, updated_at
   FROM clients WHERE owner_id = ? AND 1 = 1 ORDER BY lname ASC, fname ASC, seq ASC
   LIMIT ? OFFSET ?`,
);
const totalsQuery = db.prepare(
  `SELECT client_count, total_paise, owing_count, owing_paise, credit_count, credit_paise
   FROM owner_totals WHERE owner_id = ?`,
);
// Amounts are read as BigInt, as the app reads them, so that no total is ever rounded.
pageQuery.safeIntegers(true);
totalsQuery.safeIntegers(true);

interface ClientRow {
  id: string;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  phone_display: string | null;
  phone_valid: bigint;
  balance_paise: bigint;
  version: bigint;
  last_payment_on: string | null;
  pending_claims: bigint;
  last_reminded_on: string | null;
  oldest_due_on: string | null;
  promise_id: string | null;
  language: string;
  created_at: string;
  updated_at: string;
}

interface TotalsRow {
  client_count: bigint;
  total_paise: bigint;
}

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

function ownerOf(cookieHeader: string | undefined): string | undefined {
  const value = cookieHeader ? parseCookies(cookieHeader)[COOKIE] : undefined;
  const token = value ? verifiedToken(value) : null;
  if (!token) return undefined;
  // better-auth keeps dates in SQLite as ISO text, so text comparison orders them.
  const row = sessionQuery.get(token, new Date().toISOString()) as { id: string } | undefined;
  return row?.id;
}

function pageParameter(search: URLSearchParams, name: string, fallback: number): number {
  const value = Number(search.get(name) ?? fallback);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
}

const server = createServer((request, response) => {
  const owner = ownerOf(request.headers.cookie);
  if (!owner) {
    response.writeHead(401, { 'content-type': 'application/json; charset=utf-8' });
    response.end('{"message":"Sign in to continue"}');
    return;
  }
  const search = new URL(request.url ?? '/', 'http://floor').searchParams;
  const limit = pageParameter(search, 'limit', DEFAULT_LIMIT);
  const offset = pageParameter(search, 'offset', 0);
  const rows = pageQuery.all(owner, limit, offset) as ClientRow[];
  const totals = totalsQuery.get(owner) as TotalsRow | undefined;
  const body = JSON.stringify({
    items: rows.map((row) => ({
      id: row.id,
      fname: row.fname,
      lname: row.lname,
      email: row.email,
      phone: row.phone,
      phoneDisplay: row.phone_display ?? row.phone,
      phoneValid: row.phone_valid !== 0n,
      balance: amount(row.balance_paise),
      version: Number(row.version),
      lastPaymentOn: row.last_payment_on,
      pendingClaims: Number(row.pending_claims),
      lastRemindedOn: row.last_reminded_on,
      overdue: '0.00',
      overdueSince: null,
      promise: null,
      language: row.language,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    })),
    total: Number(totals?.client_count ?? 0n),
    totalOwed: amount(totals?.total_paise ?? 0n),
  });
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  response.end(body);
});

server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));

// Exits (rather than being killed) on SIGTERM, so that a --cpu-prof profile is written.
process.once('SIGTERM', () => process.exit(0));
