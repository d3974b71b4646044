// The PostgreSQL floor: GET /api/clients?limit=100 with the same work as the app minus the
// framework — the same session check (cookie signature, then the app's session statement, which
// reads the session's book), the book's page and totals queries, the same JSON — on plain
// node:http and pg. Never part of the app.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { parse as parseCookies } from 'cookie';
import pg from 'pg';
import { sessionStatement } from './session-statements.ts';

const [url, secret, port] = process.argv.slice(2);
if (!url || !secret || !port)
  throw new Error('usage: pg-floor-server <database url> <secret> <port>');

const pool = new pg.Pool({ connectionString: url, max: 10 });
const COOKIE = 'better-auth.session_token';
// The app refuses a session older than its maximum age (SESSION_MAX_HOURS, 12 by default).
const MAX_AGE_MS = 12 * 3600 * 1000;

function verified(value: string): string | null {
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret ?? '')
    .update(token)
    .digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

function amount(paise: bigint): string {
  const negative = paise < 0n;
  const magnitude = negative ? -paise : paise;
  return `${negative ? '-' : ''}${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}

interface Row {
  id: string;
  fname: string;
  lname: string;
  email: string;
  phone: string;
  phone_display: string | null;
  phone_valid: number;
  balance_paise: string;
  version: number;
  last_payment_on: string | null;
  pending_claims: number;
  last_reminded_on: string | null;
  oldest_due_on: string | null;
  promise_id: string | null;
  language: string;
  created_at: string;
  updated_at: string;
}

const server = createServer((request, response) => {
  void (async () => {
    const value = parseCookies(request.headers.cookie ?? '')[COOKIE];
    const token = value ? verified(value) : null;
    const now = Date.now();
    // The app's session statement (auth/session.ts): the session's book and the role in it are
    // read in it, and the list is that book's.
    const session = token
      ? await pool.query<{ bookId: string | null; bookRole: string | null }>(
          sessionStatement({ dialect: 'postgres' }),
          [token, new Date(now), new Date(now - MAX_AGE_MS)],
        )
      : undefined;
    const member = session?.rows[0];
    if (!member) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end('{"message":"Sign in to continue"}');
      return;
    }
    // Every role may read; the app goes to the account's first book when the session's is gone,
    // which the benches never cause.
    const book = member.bookId;
    if (book === null || member.bookRole === null) {
      response.writeHead(403, { 'content-type': 'application/json' });
      response.end('{"code":"no-book"}');
      return;
    }
    const [page, totals] = await Promise.all([
      pool.query<Row>(
        `SELECT id, fname, lname, email, phone, phone_display, phone_valid, balance_paise, version,
                last_payment_on, pending_claims, last_reminded_on, oldest_due_on, promise_id, language,
                created_at, updated_at
         FROM clients WHERE owner_id = $1 ORDER BY lname ASC, fname ASC, seq ASC LIMIT $2 OFFSET $3`,
        [book, 100, 0],
      ),
      pool.query<{ count: string; total: string }>(
        'SELECT client_count AS count, total_paise AS total FROM owner_totals WHERE owner_id = $1',
        [book],
      ),
    ]);
    const body = JSON.stringify({
      items: page.rows.map((row) => ({
        id: row.id,
        fname: row.fname,
        lname: row.lname,
        email: row.email,
        phone: row.phone,
        phoneDisplay: row.phone_display ?? row.phone,
        phoneValid: row.phone_valid !== 0,
        balance: amount(BigInt(row.balance_paise)),
        version: row.version,
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
      total: Number(totals.rows[0]?.count ?? 0),
      totalOwed: amount(BigInt(totals.rows[0]?.total ?? '0')),
    });
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(body);
  })().catch((error: unknown) => {
    response.writeHead(500);
    response.end(String(error));
  });
});

server.listen(Number(port), '127.0.0.1', () => process.send?.('ready'));

// Exits (rather than being killed) on SIGTERM, so that a --cpu-prof profile is written.
process.once('SIGTERM', () => process.exit(0));
