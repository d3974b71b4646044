import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { runCompiled } from '../db/compiled-queries.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';

export interface Operator {
  id: string;
  email: string;
}

export type SessionReader = (headers: IncomingHttpHeaders) => Promise<Operator | null>;

/** better-auth's session cookie; browsers only keep `__Secure-` cookies over https. */
export function sessionCookieName(config: Pick<Config, 'secureCookies'>): string {
  return `${config.secureCookies ? '__Secure-' : ''}better-auth.session_token`;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator > 0 && part.slice(0, separator).trim() === name) {
      try {
        return decodeURIComponent(part.slice(separator + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
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

/**
 * Reads the operator behind a request's session cookie: the cookie's signature, then one
 * indexed lookup of an unexpired session. better-auth writes and revokes sessions; this
 * only reads them, without its endpoint machinery, because every API call needs it (see
 * docs/decisions/0005-session-reader.md).
 */
export function createSessionReader(config: Config, database: Database): SessionReader {
  const cookieName = sessionCookieName(config);
  return async (headers) => {
    const value = readCookie(headers.cookie, cookieName);
    if (!value) return null;
    const token = verifySessionCookie(value, config.authSecret);
    if (!token) return null;
    // SQLite keeps better-auth's dates as ISO text, PostgreSQL as timestamps.
    const now = database.dialect === 'sqlite' ? new Date().toISOString() : new Date();
    const [row] = await runCompiled<Operator>(
      database.db,
      'session-operator',
      () =>
        sql`SELECT u.id AS id, u.email AS email
          FROM session s JOIN "user" u ON u.id = s."userId"
          WHERE s.token = ${token} AND s."expiresAt" > ${now}`.compile(database.db),
      [token, now],
    );
    return row ? { id: row.id, email: row.email } : null;
  };
}

export const SIGNED_OUT_MESSAGE = 'Sign in to continue';

/** The signed-in operator, or a 401 refusal. */
export async function requireOperator(
  readSession: SessionReader,
  request: FastifyRequest,
): Promise<Operator> {
  const operator = await readSession(request.headers);
  if (!operator) throw new HttpError(401, SIGNED_OUT_MESSAGE);
  return operator;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the routes that require a session, before their handler runs. */
    operatorId: string;
  }
}
