import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { parse as parseCookies } from 'cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { type OperatorRole, operatorRoleOf } from '../../shared/operator-schema.ts';
import type { Config } from '../config.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';

export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
  /** The session this request signed in with: its live sockets close when it ends. */
  sessionId: string;
}

export type SessionReader = (headers: IncomingHttpHeaders) => Promise<Operator | null>;

/** better-auth's session cookie; browsers only keep `__Secure-` cookies over https. */
export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return `${config.secureCookies ? '__Secure-' : ''}better-auth.session_token`;
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

const sessionOperatorQuery = compiledQuery(
  'session-operator',
  (_db, p: { token: string; now: string | Date }) =>
    sql<{ id: string; email: string; role: string | null; sessionId: string }>`
      SELECT u.id AS id, u.email AS email, u.role AS role, s.id AS "sessionId"
      FROM session s JOIN "user" u ON u.id = s."userId"
      WHERE s.token = ${p.token} AND s."expiresAt" > ${p.now}`,
);

/**
 * Reads the operator behind a request's session cookie: the cookie's signature, then one
 * indexed lookup of an unexpired session. better-auth writes and revokes sessions; this
 * only reads them, without its endpoint machinery, because every API call needs it (see
 * docs/decisions/0005-session-reader.md).
 */
export function createSessionReader(config: Config, database: Database): SessionReader {
  const cookieName = sessionCookieName(config);
  return async (headers) => {
    const value = headers.cookie ? parseCookies(headers.cookie)[cookieName] : undefined;
    if (!value) return null;
    const token = verifySessionCookie(value, config.authSecret);
    if (!token) return null;
    // SQLite keeps better-auth's dates as ISO text, PostgreSQL as timestamps.
    const now = database.dialect === 'sqlite' ? new Date().toISOString() : new Date();
    const [row] = await sessionOperatorQuery(database.db, { token, now });
    return row
      ? { id: row.id, email: row.email, role: operatorRoleOf(row.role), sessionId: row.sessionId }
      : null;
  };
}

export const SIGNED_OUT_MESSAGE = 'Sign in to continue';
export const ADMINISTRATORS_ONLY_MESSAGE = 'Only an administrator can do this';

/** The signed-in operator, or a 401 refusal. */
export async function requireOperator(
  readSession: SessionReader,
  request: FastifyRequest,
): Promise<Operator> {
  const operator = await readSession(request.headers);
  if (!operator) throw new HttpError(401, SIGNED_OUT_MESSAGE);
  return operator;
}

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

/**
 * Every route of this scope needs a session (and, with `administrator`, the administrator
 * role). Checked before the body is even validated, so a signed-out caller learns nothing.
 */
export function requireSession(
  scope: FastifyInstance,
  readSession: SessionReader,
  options: { administrator?: boolean } = {},
): void {
  scope.addHook('preValidation', async (request) => {
    const operator = await requireOperator(readSession, request);
    if (options.administrator && operator.role !== 'admin') {
      throw new HttpError(403, ADMINISTRATORS_ONLY_MESSAGE);
    }
    operators.set(request, operator);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in operator; only on routes behind requireSession, throws elsewhere. */
    readonly operator: Operator;
  }
}
