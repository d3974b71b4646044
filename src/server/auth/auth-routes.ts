import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { type $ZodType, safeParse } from 'zod/v4/core';
import { fieldErrorsFromIssues } from '../../shared/api-error.ts';
import { signInSchema, signUpSchema } from '../../shared/auth-schema.ts';
import { type ErrorCode, errorMessage } from '../../shared/error-messages.ts';
import { languageFromAcceptLanguage } from '../../shared/languages.ts';
import {
  type OperatorSummary,
  operatorRoleOf,
  type SentSessionAnswer,
  sentSessionAnswerSchema,
} from '../../shared/operator-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { secondFactorRequiredSchema, secondFactorSchema } from '../../shared/two-factor-schema.ts';
import type { ValidationCode } from '../../shared/validation-messages.ts';
import { joinByInvite } from '../books/book-joining.ts';
import {
  holdInvite,
  inviteIsOpen,
  makeOwnBook,
  releaseInvite,
  startInLastUsedBook,
} from '../books/books-repository.ts';
import type { RateLimitRule } from '../config.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { fieldRefusal, HttpError, validationRefusal } from '../http/errors.ts';
import { OPTIONAL_SESSION, PUBLIC_ROUTE, validatedByHandler } from '../http/openapi.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { claimFirstAdministrator } from '../operators/operators-repository.ts';
import { getSettings } from '../settings/settings-repository.ts';
import { accountExists, accountLanguageOf, saveAccountLanguage } from './account-repository.ts';
import { authErrorCode, createAuthBridge } from './auth-bridge.ts';
import { endSessions } from './end-sessions.ts';
import { newPasswordProblem, type PasswordProblem } from './password.ts';
import {
  addressGroupOf,
  createRateLimiter,
  createSignInGuard,
  type RateLimitVerdict,
} from './rate-limiter.ts';
import { createSecondFactorCheck } from './second-factor.ts';
import { withTwoFactorSetupFlag } from './two-factor-repository.ts';

export const TOO_MANY_ATTEMPTS_MESSAGE = errorMessage('rate-limited');

const authUserSchema = z.object({
  user: z.object({ id: z.string(), email: z.string(), role: z.nullish(z.string()) }),
});

/** better-auth's answer to a right password when the account has two-factor sign-in on. */
function secondFactorAsked(body: unknown): boolean {
  return (body as { twoFactorRedirect?: unknown } | null)?.twoFactorRedirect === true;
}

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
    throw validationRefusal(fieldErrorsFromIssues(result.error.issues));
  }
  return result.data;
}

/** A 429 with `Retry-After` when a limit refused the attempt. */
export function refuseUnlessAllowed(verdict: RateLimitVerdict, reply: FastifyReply): void {
  if (!verdict.allowed) {
    reply.header('retry-after', String(verdict.retryAfterSeconds));
    throw new HttpError(429, 'rate-limited');
  }
}

const PASSWORD_REFUSALS = {
  common: 'password-common',
  context: 'password-context',
  breached: 'password-breached',
} as const satisfies Record<PasswordProblem, ErrorCode & ValidationCode>;

/**
 * A new password (sign-up, a change, a reset) that is common, built on the panel's words or
 * the person's e-mail address, or breached: 400 with the message under the field that holds
 * it (`password`, or `newPassword` in a password change).
 */
export async function refuseUnacceptablePassword(
  breachedPasswordsFile: string | null,
  password: string,
  person: { email?: string | undefined } = {},
  field = 'password',
): Promise<void> {
  const problem = await newPasswordProblem(breachedPasswordsFile, password, person);
  if (problem) throw fieldRefusal(400, PASSWORD_REFUSALS[problem], field);
}

export async function registerAuthRoutes(
  app: FastifyInstance,
  { config, database, auth, readSession, bus }: RouteParts,
): Promise<void> {
  const consume = createRateLimiter(database);
  const beginSignIn = createSignInGuard(database, config.rateLimits);
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const { callAuth, refusal } = createAuthBridge(config, database, auth);
  const secondFactor = createSecondFactorCheck({ config, database, auth, callAuth, refusal });

  async function limit(key: string, rule: RateLimitRule, reply: FastifyReply): Promise<void> {
    refuseUnlessAllowed(await consume(key, rule), reply);
  }

  /**
   * The session a sign-in just made starts in the book its account worked in last (for a
   * shop's staff, the shop's), while still a member; better-auth answers its token.
   */
  async function startWhereLastWorked(answerBody: unknown): Promise<void> {
    const token = (answerBody as { token?: unknown } | null)?.token;
    if (typeof token !== 'string') return;
    await writeWithEvents(database, bus, (trx) => startInLastUsedBook(trx, token));
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

  const sessionResponses = { 200: sentSessionAnswerSchema, ...refusals };

  /** Who signed in, with the language their account keeps (every device follows it). */
  async function withLanguage(session: { user: OperatorSummary }): Promise<SentSessionAnswer> {
    const language = await accountLanguageOf(database, session.user.id);
    return { user: { ...session.user, language } };
  }

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
      // An invitation lets its bearer in whatever the setting (issue 23).
      const invited = typeof (request.body as { inviteToken?: unknown } | null)?.inviteToken;
      if (invited !== 'string') {
        const settings = await getSettings(database);
        if (!settings.allowRegistrations) throw new HttpError(403, 'registrations-closed');
      }
      const input = parseBody(signUpSchema, request.body);
      const { inviteToken } = input;
      // One that cannot be used refuses before any account is made.
      if (inviteToken !== undefined && !(await inviteIsOpen(database, inviteToken))) {
        throw new HttpError(404, 'invite-not-found');
      }
      await refuseUnacceptablePassword(config.breachedPasswordsFile, input.password, {
        email: input.email,
      });
      const email = input.email.toLowerCase();
      await limit(`sign-up:email:${email}`, config.rateLimits.signUpPerEmail, reply);
      // Held from here until the account joins: two sign-ups with one invitation at once
      // would otherwise both pass the check above, and the second make an account while
      // registrations are closed.
      const heldAt =
        inviteToken === undefined
          ? undefined
          : await writeWithEvents(database, bus, (trx) => holdInvite(trx, inviteToken));
      if (heldAt === null) throw new HttpError(404, 'invite-not-found');
      const release = () =>
        inviteToken === undefined || heldAt === undefined
          ? Promise.resolve()
          : writeWithEvents(database, bus, (trx) => releaseInvite(trx, inviteToken, heldAt));
      let answer: Awaited<ReturnType<typeof callAuth>>;
      try {
        answer = await callAuth(request, reply, {
          email,
          password: input.password,
          name: input.name || email.split('@')[0],
        });
      } catch (error) {
        await release();
        throw error;
      }
      const session = answer.status === 200 ? toSessionAnswer(answer.body) : null;
      if (!session) {
        await release();
        // Two sign-ups with one e-mail at once: both pass better-auth's look-up, and the
        // second's insert meets the first's row, which better-auth reports as a failure.
        if (
          authErrorCode(answer) === 'FAILED_TO_CREATE_USER' &&
          (await accountExists(database, email))
        ) {
          throw new HttpError(422, 'account-exists');
        }
        return refusal(answer);
      }
      await endReplacedSession(request);
      // The language the visitor was reading the pages in, else the one their browser asks for.
      const language =
        input.language ?? languageFromAcceptLanguage(request.headers['accept-language']);
      const user = { ...session.user, language };
      const name = input.name || email.split('@')[0] || email;
      const claimed = await writeWithEvents(database, bus, async (trx, publish) => {
        await saveAccountLanguage(trx, user.id, language);
        await makeOwnBook(trx, { id: user.id, name, email });
        if (inviteToken !== undefined) {
          await joinByInvite(trx, publish, user, inviteToken, { everySession: true }, heldAt);
        }
        return claimFirstAdministrator(trx, user.id);
      });
      if (claimed) user.role = 'admin';
      return withTwoFactorSetupFlag(database, { user });
    },
  );

  routes.post(
    apiPaths.signIn,
    {
      validatorCompiler: validatedByHandler,
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Auth'],
        summary:
          'Sign in with e-mail and password; an account with two-factor sign-in answers secondFactorRequired',
        body: signInSchema,
        response: {
          200: z.union([sentSessionAnswerSchema, secondFactorRequiredSchema]),
          ...refusals,
        },
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
      if (answer.status === 200 && secondFactorAsked(answer.body)) {
        // The password was right: no session yet, only the challenge cookie for the code. A
        // session the request carried ends now, as at any sign-in: better-auth has already
        // told the browser to forget its cookie, so the second step could not end it.
        await attempt.succeeded();
        await endReplacedSession(request);
        return { secondFactorRequired: true as const };
      }
      const session = answer.status === 200 ? toSessionAnswer(answer.body) : null;
      if (!session) return refusal(answer);
      await attempt.succeeded();
      await endReplacedSession(request);
      await startWhereLastWorked(answer.body);
      return withTwoFactorSetupFlag(database, await withLanguage(session));
    },
  );

  routes.post(
    apiPaths.signInSecondFactor,
    {
      validatorCompiler: validatedByHandler,
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Auth'],
        summary:
          'Sign in, second step: a code from the authenticator app, or a backup code (after a sign-in that answered secondFactorRequired)',
        body: secondFactorSchema,
        response: sessionResponses,
      },
    },
    async (request, reply) => {
      await limit(
        `second-factor:ip:${addressGroupOf(request.ip)}`,
        config.rateLimits.signInPerIp,
        reply,
      );
      const { code } = parseBody(secondFactorSchema, request.body);
      const challenge = await secondFactor.challengeOf(request);
      if (!challenge) throw new HttpError(401, 'sign-in-again');
      const answer = await secondFactor.verify(request, reply, challenge, code);
      const session = toSessionAnswer(answer.body);
      if (!session) return refusal(answer);
      await endReplacedSession(request);
      await startWhereLastWorked(answer.body);
      return withLanguage(session);
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
        response: { 200: z.object({ success: z.boolean() }), ...refusals },
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
        response: { 200: z.nullable(sentSessionAnswerSchema), ...refusals },
      },
    },
    async (request, reply) => {
      const answer = await callAuth(request, reply);
      if (answer.status !== 200) return refusal(answer);
      const session = toSessionAnswer(answer.body);
      return session && withTwoFactorSetupFlag(database, await withLanguage(session));
    },
  );
}
