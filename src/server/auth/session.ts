import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookies } from 'cookie';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import {
  BOOK_HEADER,
  BOOK_ROLES,
  type BookAction,
  type BookRole,
  roleMay,
} from '../../shared/book-roles.ts';
import { errorMessage } from '../../shared/error-messages.ts';
import { type Language, languageOrDefault } from '../../shared/languages.ts';
import { type OperatorRole, operatorRoleOf } from '../../shared/operator-schema.ts';
import { UNATTENDED_HEADER } from '../../shared/session-use.ts';
import type { Config, SessionLimits } from '../config.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import { type Database, storedDate } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';

export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
  /** The language the account keeps: its pages', and new clients' until chosen. */
  language: Language;
  /** The session this request signed in with: its live sockets close when it ends. */
  sessionId: string;
  /**
   * The administrator requires two-factor sign-in and this operator has not turned it on:
   * only that setup is open to them (requireSession's `beforeTwoFactorSetup`).
   */
  twoFactorSetupRequired: boolean;
  /**
   * The book this session works in and the operator's role there (issue 23); null when the
   * account belongs to no book at all.
   */
  book: CurrentBook | null;
}

export interface CurrentBook {
  id: string;
  role: BookRole;
}

interface ReadOptions {
  /**
   * The request uses the session (an API call, a socket being opened): its idle end moves
   * on. A check that is not the operator's doing (a live socket's heartbeat) leaves it.
   */
  use?: boolean;
}

export type SessionReader = (
  headers: IncomingHttpHeaders,
  options?: ReadOptions,
) => Promise<Operator | null>;

/**
 * The first part of our cookies' names (better-auth's `advanced.cookiePrefix`). Over https
 * it is `__Host-`: the browser then keeps the cookie only if it is Secure, for path / and
 * without a Domain, so no other host (a sibling subdomain) can set or shadow it (ASVS
 * 3.3.3). Browsers refuse such cookies over plain http, where the name stays better-auth's.
 */
export function cookiePrefix(config: Pick<Config, 'secureCookies'>): string {
  return config.secureCookies ? '__Host-client-panel' : 'better-auth';
}

export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return `${cookiePrefix(config)}.session_token`;
}

/** The session token if the cookie carries better-auth's HMAC-SHA256 signature of it. */
export function verifySessionCookie(value: string, secret: string): string | null {
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret).update(token).digest();
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/** Signed cookies remembered with their tokens: a busy panel has a few hundred sessions. */
const VERIFIED_COOKIES_KEPT = 1000;

/**
 * verifySessionCookie, each cookie's signature checked once: its HMAC was the largest cost of
 * the session check after the query itself (decision 0034). Only cookies whose signature was
 * good are kept, so any other value is always checked; what the session row says (revoked,
 * expired, deactivated) is read from the database on every request as before.
 */
export function verifiedTokens(secret: string): (value: string) => string | null {
  const verified = new Map<string, string>();
  return (value) => {
    const known = verified.get(value);
    if (known !== undefined) return known;
    const token = verifySessionCookie(value, secret);
    if (token === null) return null;
    if (verified.size >= VERIFIED_COOKIES_KEPT) {
      const oldest = verified.keys().next().value;
      if (oldest !== undefined) verified.delete(oldest);
    }
    verified.set(value, token);
    return token;
  };
}

const sessionOperatorQuery = compiledQuery(
  'session-operator',
  (_db, p: { token: string; now: string | Date; bornAfter: string | Date }) =>
    sql<{
      id: string;
      email: string;
      role: string | null;
      language: string;
      sessionId: string;
      expiresAt: string | Date;
      createdAt: string | Date;
      twoFactorEnabled: number | boolean | null;
      requireTwoFactor: number | string | null;
      bookId: string | null;
      bookRole: string | null;
    }>`
      SELECT u.id AS id, u.email AS email, u.role AS role, u.language AS language,
        s.id AS "sessionId",
        s."expiresAt" AS "expiresAt", s."createdAt" AS "createdAt",
        u."twoFactorEnabled" AS "twoFactorEnabled",
        (SELECT require_two_factor FROM settings WHERE id = 1) AS "requireTwoFactor",
        m.book_id AS "bookId", m.role AS "bookRole"
      FROM session s JOIN "user" u ON u.id = s."userId"
        LEFT JOIN book_members m
          ON m.book_id = COALESCE(s.current_book_id, u.id) AND m.user_id = u.id
      WHERE s.token = ${p.token} AND s."expiresAt" > ${p.now} AND s."createdAt" > ${p.bornAfter}
        AND NOT EXISTS (SELECT 1 FROM operator_deactivations d WHERE d.user_id = u.id)`,
);

/**
 * The book a session goes to when it has none it may work in (its book's membership ended, or
 * the account's own book was handed over and left): the first the account joined.
 */
const firstBookQuery = compiledQuery(
  'first-book',
  (_db, p: { userId: string }) =>
    sql<{ bookId: string; bookRole: string }>`
    SELECT book_id AS "bookId", role AS "bookRole" FROM book_members
    WHERE user_id = ${p.userId} ORDER BY joined_at, book_id LIMIT 1`,
);

const BOOK_ROLE_SET: ReadonlySet<string> = new Set(BOOK_ROLES);

/**
 * A stored membership's role, refused (thrown) when it is none of the book roles: what
 * bookRoleSchema.parse did, without a zod parse on every request (decision 0034).
 */
export function storedBookRole(stored: string | null): BookRole {
  if (stored === null || !BOOK_ROLE_SET.has(stored)) {
    throw new Error(`a book membership has an unknown role: ${String(stored)}`);
  }
  return stored as BookRole;
}

/** When a session made at `now` ends unless it is used: better-auth's create hook (auth.ts). */
export function firstSessionEnd(limits: SessionLimits, now: number): Date {
  return new Date(now + Math.min(limits.idleSeconds, limits.maxAgeSeconds) * 1000);
}

/**
 * Where a session used at `now` should end: its idle time from now, never past its maximum.
 * Null when what is stored is within `slideEverySeconds` of that (so a busy session is
 * written once every few minutes, not on every request). A stored end much later than the
 * target (a session made under longer limits) is brought in.
 */
export function slidSessionEnd(
  limits: SessionLimits,
  session: { createdAt: number; expiresAt: number },
  now: number,
): number | null {
  const target = Math.min(
    now + limits.idleSeconds * 1000,
    session.createdAt + limits.maxAgeSeconds * 1000,
  );
  // Either way by at least that much: instances whose clocks differ a little do not take
  // turns writing a session.
  return Math.abs(target - session.expiresAt) >= limits.slideEverySeconds * 1000 ? target : null;
}

interface SessionReaderOptions {
  /** Where a failed slide is reported (the request itself goes on: its session is valid). */
  log?: Pick<FastifyBaseLogger, 'warn'>;
  /** The clock, in ms; tests move it. */
  now?: () => number;
}

/**
 * Reads the operator behind a request's session cookie: the cookie's signature, then one
 * indexed lookup of a session that has neither idled out nor outlived its maximum, of an
 * operator who is not deactivated (deactivating ends their sessions; this also refuses one
 * that a sign-in racing the deactivation made).
 * better-auth writes and revokes sessions; this reads them without its endpoint machinery,
 * because every API call needs it (see docs/decisions/0005-session-reader.md), and moves a
 * used session's end on (docs/decisions/0022-session-lifetime.md).
 */
export function createSessionReader(
  config: Config,
  database: Database,
  { log, now: clock = Date.now }: SessionReaderOptions = {},
): SessionReader {
  const cookieName = sessionCookieName(config);
  const limits = config.sessions;
  const tokenOf = verifiedTokens(config.authSecret);
  const stored = (ms: number) => storedDate(database.dialect, ms);
  // One slide per session at a time: a burst of requests writes once.
  const sliding = new Set<string>();

  /**
   * Written in the background, off the request's path: a read never waits for a write (nor
   * fails with one, on a full disk), and the session is valid for this request either way.
   */
  async function slide(sessionId: string, end: number, at: number): Promise<void> {
    if (sliding.has(sessionId)) return;
    sliding.add(sessionId);
    try {
      await database.write((trx) =>
        trx
          .updateTable('session')
          .set({ expiresAt: stored(end), updatedAt: stored(at) })
          .where('id', '=', sessionId)
          .execute(),
      );
    } catch (error) {
      log?.warn({ err: error }, "a session's end was not moved on");
    } finally {
      sliding.delete(sessionId);
    }
  }

  /** Keeps the session in the book it fell back to, off the request's path. */
  async function moveToBook(sessionId: string, bookId: string): Promise<void> {
    try {
      await database.write((trx) =>
        trx
          .updateTable('session')
          .set({ current_book_id: bookId })
          .where('id', '=', sessionId)
          .execute(),
      );
    } catch (error) {
      log?.warn({ err: error }, "a session's book was not kept");
    }
  }

  return async (headers, { use = false } = {}) => {
    const value = headers.cookie ? parseCookies(headers.cookie)[cookieName] : undefined;
    if (!value) return null;
    const token = tokenOf(value);
    if (!token) return null;
    const now = clock();
    const [row] = await sessionOperatorQuery(database.db, {
      token,
      now: stored(now),
      bornAfter: stored(now - limits.maxAgeSeconds * 1000),
    });
    if (!row) return null;
    if (use) {
      const end = slidSessionEnd(
        limits,
        {
          createdAt: new Date(row.createdAt).getTime(),
          expiresAt: new Date(row.expiresAt).getTime(),
        },
        now,
      );
      if (end !== null) void slide(row.sessionId, end, now);
    }
    let member = row.bookId === null ? null : { bookId: row.bookId, bookRole: row.bookRole };
    if (member === null) {
      // Rare: only after a membership ended under this session.
      [member = null] = await firstBookQuery(database.db, { userId: row.id });
      if (member) void moveToBook(row.sessionId, member.bookId);
    }
    return {
      id: row.id,
      email: row.email,
      role: operatorRoleOf(row.role),
      language: languageOrDefault(row.language),
      sessionId: row.sessionId,
      twoFactorSetupRequired: Number(row.requireTwoFactor ?? 0) !== 0 && !row.twoFactorEnabled,
      book: member ? { id: member.bookId, role: storedBookRole(member.bookRole) } : null,
    };
  };
}

export const SIGNED_OUT_MESSAGE = errorMessage('unauthorized');

const operators = new WeakMap<FastifyRequest, Operator>();

export const OPERATOR_WITHOUT_SESSION_CHECK =
  'request.operator was read on a route that does not require a session';

/**
 * `request.operator` exists only on routes that check the session first (requireSession).
 * Anywhere else, reading it throws: a route that forgets the check fails loudly instead of
 * quietly querying for nobody.
 */
export function decorateOperator(app: FastifyInstance): void {
  app.decorateRequest('operator', {
    getter(this: FastifyRequest): Operator {
      const operator = operators.get(this);
      if (!operator) throw new Error(OPERATOR_WITHOUT_SESSION_CHECK);
      return operator;
    },
  });
}

/** A scope's routes, typed by their zod schemas. */
export type ZodRoutes = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** What a scope's routes ask of the session beyond its being there. */
export interface SessionRequirement {
  administrator?: boolean;
  use?: boolean;
  beforeTwoFactorSetup?: boolean;
}

/**
 * Every route of this scope needs a session (and, with `administrator`, the administrator
 * role), and the role in the book must allow the route's action: checked before the body is
 * read, so a signed-out caller learns nothing and one the role refuses cannot make the server
 * read (or parse) a body it would refuse anyway. A request's database deadline (PostgreSQL) is
 * entered after the body is read; the session's read, before it, has the same limit on its own.
 */
export function requireSession(
  scope: FastifyInstance,
  readSession: SessionReader,
  options: SessionRequirement = {},
): void {
  const use = options.use ?? true;
  // The session is read in the hook itself, not in a helper of its own: every request of the
  // API passes here, and each async layer costs it a promise (and its async hooks).
  scope.addHook('preParsing', async (request) => {
    // A use of the session unless the route says not (opening a live socket) or the web app
    // marks the request unattended.
    const unattended = request.headers[UNATTENDED_HEADER] === '1';
    const operator = await readSession(request.headers, { use: use && !unattended });
    if (!operator) throw new HttpError(401, 'unauthorized');
    if (operator.twoFactorSetupRequired && !options.beforeTwoFactorSetup) {
      throw new HttpError(403, 'two-factor-setup-required');
    }
    if (options.administrator && operator.role !== 'admin') {
      throw new HttpError(403, 'administrators-only');
    }
    const action = request.routeOptions.config.bookAction;
    if (action !== undefined) {
      refuseUnlessMay(operator, action);
      const pageBook = request.headers[BOOK_HEADER];
      if (typeof pageBook === 'string' && pageBook !== operator.book?.id) {
        throw new HttpError(409, 'book-changed');
      }
    }
    operators.set(request, operator);
  });
}

/**
 * Routes for a signed-in operator: `register` adds them to a scope of their own behind
 * `requireSession`, with what they ask of the session beyond its being there.
 */
export async function registerSignedIn(
  app: FastifyInstance,
  { readSession, ...requirement }: SessionRequirement & { readSession: SessionReader },
  register: (routes: ZodRoutes) => void | Promise<void>,
): Promise<void> {
  await app.register(async (scope) => {
    requireSession(scope, readSession, requirement);
    await register(scope.withTypeProvider<ZodTypeProvider>());
  });
}

/**
 * A route of a book says what it does (`config.bookAction`); its caller's role in the
 * session's book must allow it (src/shared/book-roles.ts), checked before the body is read.
 */
function refuseUnlessMay(operator: Operator, action: BookAction): void {
  if (!operator.book) throw new HttpError(403, 'no-book');
  if (!roleMay(operator.book.role, action)) throw new HttpError(403, 'role-forbidden');
}

/**
 * The session's book, on a route that declared its action (and so had the role checked);
 * anywhere else it throws, so that no route reads a book it did not check.
 */
export function bookOf(request: FastifyRequest): CurrentBook {
  const book = request.operator.book;
  if (request.routeOptions.config.bookAction === undefined || !book) {
    throw new Error(BOOK_WITHOUT_ACTION);
  }
  return book;
}

export const BOOK_WITHOUT_ACTION = "a route read the session's book without naming its action";

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a route of a book does: the caller's role there must allow it. */
    bookAction?: BookAction;
  }
  interface FastifyRequest {
    /** The signed-in operator; only on routes behind requireSession, throws elsewhere. */
    readonly operator: Operator;
  }
}
