import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorCode } from '../../shared/error-messages.ts';
import type { Config } from '../config.ts';
import { DatabaseUnavailable, databaseAnswers } from '../db/availability.ts';
import type { Database } from '../db/database.ts';
import { codeOfStatus, HttpError } from '../http/errors.ts';
import { ACCOUNT_DEACTIVATED_CODE, AUTH_BASE_PATH, type Auth, CLIENT_IP_HEADER } from './auth.ts';

export interface AuthAnswer {
  status: number;
  body: unknown;
}

/** better-auth's error code of a refusal ("INVALID_CODE"), if it gave one. */
export function authErrorCode(answer: AuthAnswer): string | undefined {
  const code = (answer.body as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * better-auth's refusals that reach a person, in our codes; their texts in our catalogue are
 * better-auth's words (http/refusal-text.test.ts), so the message does not change.
 */
const CODES_BY_AUTH_CODE: Record<string, ErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: 'invalid-credentials',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'account-exists',
  [ACCOUNT_DEACTIVATED_CODE]: 'account-deactivated',
};

/**
 * Our routes' one way into better-auth: its own paths are not routed
 * (docs/decisions/0003-auth-endpoints-allowlist.md).
 */
export function createAuthBridge(config: Config, database: Database, auth: Auth) {
  /**
   * Hands the request to better-auth as a fetch Request (on the public URL, whatever Host the
   * request named) and passes on its cookies; its JSON answer is returned for shaping. `path`
   * names a better-auth endpoint other than the route's own ("/two-factor/verify-totp");
   * `cookie`, when given, is all better-auth sees of the request's cookies.
   */
  async function callAuth(
    request: FastifyRequest,
    reply: FastifyReply,
    body?: unknown,
    { path, cookie }: { path?: string; cookie?: string } = {},
  ): Promise<AuthAnswer> {
    const headers = fromNodeHeaders(request.headers);
    headers.delete('content-length');
    if (cookie !== undefined) headers.set('cookie', cookie);
    headers.set(CLIENT_IP_HEADER, request.ip);
    if (body !== undefined) headers.set('content-type', 'application/json');
    const url = new URL(path ? `${AUTH_BASE_PATH}${path}` : request.url, config.publicUrl);
    const response = await auth.handler(
      new Request(url, {
        method: body === undefined && !path ? request.method : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: response.status, body: parsed };
  }

  /**
   * better-auth's refusals keep their status, in the API's one error shape: the ones people
   * meet in our code and words, any other with the generic code of its status and
   * better-auth's message. Its own failures hide their cause; one that coincides with an
   * unreachable database is that (503), anything else a server error.
   */
  async function refusal(answer: AuthAnswer): Promise<never> {
    const message =
      (answer.body as { message?: unknown } | null)?.message ?? 'The request was refused';
    if (answer.status >= 500) {
      if (!(await databaseAnswers(database))) {
        // The error handler's 503, Retry-After included, as for any other call.
        throw new DatabaseUnavailable(`auth failed with ${answer.status}: ${message}`);
      }
      throw new Error(`auth failed with ${answer.status}: ${message}`);
    }
    const known = CODES_BY_AUTH_CODE[authErrorCode(answer) ?? ''];
    if (known) throw new HttpError(answer.status, known);
    throw new HttpError(answer.status, codeOfStatus(answer.status), { message: String(message) });
  }

  return { callAuth, refusal };
}
