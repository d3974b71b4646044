import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { type $ZodType, safeParse } from 'zod/v4/core';
import { apiErrorSchema, fieldErrorsFromIssues } from '../../shared/api-error.ts';
import { signInSchema, signUpSchema } from '../../shared/auth-schema.ts';
import {
  type OperatorSummary,
  operatorRoleOf,
  sessionAnswerSchema,
} from '../../shared/operator-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import type { Config, RateLimitRule } from '../config.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, databaseAnswers } from '../db/availability.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { OPTIONAL_SESSION, PUBLIC_ROUTE, validatedByHandler } from '../http/openapi.ts';
import type { EventBus } from '../live/event-bus.ts';
import { claimFirstAdministrator } from '../operators/operators-repository.ts';
import { getSettings } from '../settings/settings-repository.ts';
import { type Auth, CLIENT_IP_HEADER } from './auth.ts';
import { endSessions } from './end-sessions.ts';
import { assertAcceptablePassword } from './password.ts';
import {
  addressGroupOf,
  createRateLimiter,
  createSignInGuard,
  type RateLimitVerdict,
} from './rate-limiter.ts';
import type { SessionReader } from './session.ts';

export const REGISTRATIONS_CLOSED_MESSAGE = 'Registrations are closed';
export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts. Please wait and try again.';

interface AuthRoutesOptions {
  config: Config;
  database: Database;
  auth: Auth;
  readSession: SessionReader;
  bus: EventBus;
}

interface AuthAnswer {
  status: number;
  body: unknown;
}

const authUserSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), role: z.nullish(z.string()) }),
});

/** Only who is signed in goes back to the browser: never the session token in a body. */
function toSessionAnswer(body: unknown): { user: OperatorSummary } | null {
  const parsed = authUserSchema.safeParse(body);
  if (!parsed.success) return null;
  const { id, email, role } = parsed.data.user;
  return { user: { id, email, role: operatorRoleOf(role) } };
}

function parseBody<T>(schema: $ZodType<T>, body: unknown): T {
  const result = safeParse(schema, body ?? {});
  if (!result.success) {
    throw new HttpError(
      400,
      'Some fields are not valid',
      fieldErrorsFromIssues(result.error.issues),
    );
  }
  return result.data;
}

/** A 429 with `Retry-After` when a limit refused the attempt. */
export function refuseUnlessAllowed(verdict: RateLimitVerdict, reply: FastifyReply): void {
  if (!verdict.allowed) {
    reply.header('retry-after', String(verdict.retryAfterSeconds));
    throw new HttpError(429, TOO_MANY_ATTEMPTS_MESSAGE);
  }
}

export async function registerAuthRoutes(
  app: FastifyInstance,
  { config, database, auth, readSession, bus }: AuthRoutesOptions,
): Promise<void> {
  const consume = createRateLimiter(database);
  const beginSignIn = createSignInGuard(database, config.rateLimits);
  const routes = app.withTypeProvider<ZodTypeProvider>();

  async function limit(key: string, rule: RateLimitRule, reply: FastifyReply): Promise<void> {
    refuseUnlessAllowed(await consume(key, rule), reply);
  }

  /**
   * Hands the request to better-auth as a fetch Request (on the public URL, whatever Host the
   * request named) and passes on its cookies; its JSON answer is returned for shaping.
   */
  async function callAuth(
    request: FastifyRequest,
    reply: FastifyReply,
    body?: unknown,
  ): Promise<AuthAnswer> {
    const headers = fromNodeHeaders(request.headers);
    headers.delete('content-length');
    headers.set(CLIENT_IP_HEADER, request.ip);
    if (body !== undefined) headers.set('content-type', 'application/json');
    const response = await auth.handler(
      new Request(new URL(request.url, config.publicUrl), {
        method: request.method,
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
   * better-auth's refusals keep their status and message, in the API's one error shape.
   * Its own failures hide their cause; one that coincides with an unreachable database is
   * that (503), anything else a server error.
   */
  async function refusal(answer: AuthAnswer): Promise<never> {
    const message =
      (answer.body as { message?: unknown } | null)?.message ?? 'The request was refused';
    if (answer.status >= 500) {
      if (!(await databaseAnswers(database))) {
        throw new HttpError(503, DATABASE_UNAVAILABLE_MESSAGE);
      }
      throw new Error(`auth failed with ${answer.status}: ${message}`);
    }
    throw new HttpError(answer.status, String(message));
  }

  /**
   * Signing in (or up) gives a new session token; the one the request still carried, if it
   * was valid, ends with it, sockets and all (ASVS 7.2.4), so that a token someone planted
   * or saw before the sign-in is worth nothing after it. Its cookie is already replaced.
   */
  async function endReplacedSession(request: FastifyRequest): Promise<void> {
    if (!request.headers.cookie) return;
    const previous = await readSession(request.headers);
    if (previous) await endSessions(database, bus, { sessionIds: [previous.sessionId] });
  }

  const sessionResponses = { 200: sessionAnswerSchema, '4xx': apiErrorSchema };

  // Sign-up and sign-in check their bodies themselves, after the rate limits (and the
  // registrations setting), and sign-out reads none: these body schemas only describe the
  // request, for the API description (docs/decisions/0015-openapi.md).
  routes.post(
    apiPaths.signUp,
    {
      validatorCompiler: validatedByHandler,
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Auth'],
        summary: 'Create an account, and sign in with it',
        body: signUpSchema,
        response: sessionResponses,
      },
    },
    async (request, reply) => {
      await limit(`sign-up:ip:${addressGroupOf(request.ip)}`, config.rateLimits.signUpPerIp, reply);
      const settings = await getSettings(database.db);
      if (!settings.allowRegistrations) throw new HttpError(403, REGISTRATIONS_CLOSED_MESSAGE);
      const input = parseBody(signUpSchema, request.body);
      assertAcceptablePassword(input.password, { email: input.email });
      const email = input.email.toLowerCase();
      await limit(`sign-up:email:${email}`, config.rateLimits.signUpPerEmail, reply);
      const answer = await callAuth(request, reply, {
        email,
        password: input.password,
        name: input.name || email.split('@')[0],
      });
      const session = answer.status === 200 ? toSessionAnswer(answer.body) : null;
      if (!session) return refusal(answer);
      await endReplacedSession(request);
      const { user } = session;
      if (await database.write((trx) => claimFirstAdministrator(trx, user.id))) {
        user.role = 'admin';
      }
      return { user };
    },
  );

  routes.post(
    apiPaths.signIn,
    {
      validatorCompiler: validatedByHandler,
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Auth'],
        summary: 'Sign in with e-mail and password',
        body: signInSchema,
        response: sessionResponses,
      },
    },
    async (request, reply) => {
      const attempt = await beginSignIn(request.ip);
      refuseUnlessAllowed(attempt.address, reply);
      const input = parseBody(signInSchema, request.body);
      const email = input.email.toLowerCase();
      refuseUnlessAllowed(await attempt.forEmail(email), reply);
      // Past this point a wrong password and an unknown e-mail do the same work: one argon2id
      // computation in better-auth (a verify, or a hash of the password given) and no writes.
      const answer = await callAuth(request, reply, { email, password: input.password });
      const session = answer.status === 200 ? toSessionAnswer(answer.body) : null;
      if (!session) return refusal(answer);
      await attempt.succeeded();
      await endReplacedSession(request);
      return session;
    },
  );

  routes.post(
    apiPaths.signOut,
    {
      validatorCompiler: validatedByHandler,
      schema: {
        ...OPTIONAL_SESSION,
        tags: ['Auth'],
        summary: "Sign out: revoke the request's session",
        body: z.object({}),
        response: { 200: z.object({ success: z.boolean() }), '4xx': apiErrorSchema },
      },
    },
    async (request, reply) => {
      // The session's live sockets close first, so that no event reaches them after sign-out.
      const operator = await readSession(request.headers);
      if (operator) await bus.publish({ kind: 'sessions-ended', sessionIds: [operator.sessionId] });
      const answer = await callAuth(request, reply, {});
      if (answer.status !== 200) return refusal(answer);
      return { success: true };
    },
  );

  routes.get(
    apiPaths.session,
    {
      schema: {
        ...OPTIONAL_SESSION,
        tags: ['Auth'],
        summary: 'Who is signed in (null when no one is)',
        response: { 200: z.nullable(sessionAnswerSchema), '4xx': apiErrorSchema },
      },
    },
    async (request, reply) => {
      const answer = await callAuth(request, reply);
      if (answer.status !== 200) return refusal(answer);
      return toSessionAnswer(answer.body);
    },
  );
}
