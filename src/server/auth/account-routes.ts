import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accountSessionListSchema,
  accountSessionsEndedSchema,
  emailChangeSchema,
  passwordChangedSchema,
  passwordChangeSchema,
  sessionsEndSchema,
  signedOutEverywhereSchema,
} from '../../shared/account-schema.ts';
import { sentSessionAnswerSchema } from '../../shared/operator-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { preferencesSchema } from '../../shared/preferences-schema.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { fieldRefusal } from '../http/errors.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import {
  changeEmail,
  type EmailChange,
  isUniqueViolation,
  passwordHashOf,
  replacePassword,
  saveAccountLanguage,
} from './account-repository.ts';
import { refuseUnacceptablePassword, refuseUnlessAllowed } from './auth-routes.ts';
import { endSessions } from './end-sessions.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { createRateLimiter, refundRateLimit } from './rate-limiter.ts';
import { type Operator, registerSignedIn, sessionCookieName } from './session.ts';
import { activeSessionsOf, deleteSessions } from './sessions-repository.ts';
import { describeUserAgent } from './user-agent.ts';

/**
 * The current password, checked as sign-in checks one (argon2id), so that a signed-in
 * screen left unattended does not give the account away. Wrong ones are limited per
 * operator (config.account.wrongPasswordsPerOperator); a right one takes its count back.
 */
export function createCurrentPasswordCheck(config: Config, database: Database) {
  const consume = createRateLimiter(database);
  return async function checkCurrentPassword(
    operator: Operator,
    given: string,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    const key = `account:password:${operator.id}`;
    const verdict = await consume(key, config.account.wrongPasswordsPerOperator);
    refuseUnlessAllowed(verdict, reply);
    const hash = await passwordHashOf(database, operator.id);
    if (!hash || !(await verifyPassword({ hash, password: given }))) {
      request.log.warn({ operatorId: operator.id }, 'a wrong current password was given');
      throw fieldRefusal(400, 'wrong-current-password', 'currentPassword');
    }
    await refundRateLimit(database, key, verdict.windowStart);
  };
}

/**
 * The signed-in operator's own account: a new password or e-mail address (each with the
 * current password), their active sessions (listed, and ended with the current password),
 * and "sign out everywhere". Behind the session check and, for the POSTs, the origin rule
 * (http/security.ts).
 */
export async function registerAccountRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus }: RouteParts,
): Promise<void> {
  const checkCurrentPassword = createCurrentPasswordCheck(config, database);
  const cookieName = sessionCookieName(config);

  /** The cookie is worth nothing once its session ended; the browser may as well forget it. */
  function expireCookie(reply: FastifyReply): void {
    const secure = config.secureCookies ? '; Secure' : '';
    reply.header(
      'set-cookie',
      `${cookieName}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure}`,
    );
  }

  // The language of the pages is open before a required two-factor setup too: that setup's
  // page has the language menu.
  await registerSignedIn(app, { readSession, beforeTwoFactorSetup: true }, async (routes) => {
    routes.put(
      apiPaths.accountPreferences,
      {
        schema: {
          tags: ['Auth'],
          summary:
            "Choose the language of one's pages: kept on the account, every device and open tab follows",
          body: preferencesSchema,
          response: { 200: preferencesSchema, ...refusals },
        },
      },
      (request) => {
        const { language } = request.body;
        const ownerId = request.operator.id;
        return writeWithEvents(database, bus, async (trx, publish) => {
          await saveAccountLanguage(trx, ownerId, language);
          const event = { type: 'preferences.updated' as const, language };
          await publish({ kind: 'event', ownerId: null, userId: ownerId, event });
          return { language };
        });
      },
    );
  });

  await registerSignedIn(app, { readSession }, async (routes) => {
    routes.post(
      apiPaths.accountPassword,
      {
        schema: {
          tags: ['Auth'],
          summary:
            "Change one's password (the current one required); every other session of the account ends",
          body: passwordChangeSchema,
          response: { 200: passwordChangedSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = request.operator;
        const { currentPassword, newPassword } = request.body;
        if (newPassword === currentPassword) {
          throw fieldRefusal(400, 'same-password', 'newPassword');
        }
        await refuseUnacceptablePassword(
          config.breachedPasswordsFile,
          newPassword,
          { email: operator.email },
          'newPassword',
        );
        await checkCurrentPassword(operator, currentPassword, request, reply);
        const hash = await hashPassword(newPassword);
        const others = { userId: operator.id, exceptSessionId: operator.sessionId };
        // One write: there is no moment where the new password works and an old session does.
        const replaced = await writeWithEvents(database, bus, async (trx, publish) => {
          await replacePassword(trx, { userId: operator.id, hash });
          const ended = await deleteSessions(trx, others);
          await publish({ kind: 'sessions-ended', sessionIds: ended.ids });
          return ended.active;
        });
        // A sign-in that checked the old password while it changed may have made a session
        // since: it ends too.
        const late = await endSessions(database, bus, others);
        const revoked = replaced + late;
        request.log.info(
          { operatorId: operator.id, revoked },
          'an operator changed their password',
        );
        return { revoked };
      },
    );

    routes.post(
      apiPaths.accountEmail,
      {
        schema: {
          tags: ['Auth'],
          summary: "Change one's e-mail address (the current password required)",
          body: emailChangeSchema,
          response: { 200: sentSessionAnswerSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = request.operator;
        const email = request.body.email.toLowerCase();
        await checkCurrentPassword(operator, request.body.currentPassword, request, reply);
        const { language } = operator;
        if (email === operator.email) {
          return { user: { id: operator.id, email, role: operator.role, language } };
        }
        const outcome: EmailChange = await writeWithEvents(database, bus, async (trx, publish) => {
          const result = await changeEmail(trx, { userId: operator.id, email });
          // The operator's open pages learn it live, as they do a role change.
          if (result.kind === 'changed') {
            const event = { type: 'operator.updated' as const, operator: result.operator };
            await publish({ kind: 'event', ownerId: null, userId: operator.id, event });
          }
          return result;
        }).catch((error: unknown) => {
          if (isUniqueViolation(error)) return { kind: 'taken' as const };
          throw error;
        });
        if (outcome.kind === 'taken') {
          throw fieldRefusal(409, 'email-taken', 'email');
        }
        request.log.info({ operatorId: operator.id }, 'an operator changed their e-mail address');
        return { user: { ...outcome.operator, language } };
      },
    );

    routes.post(
      apiPaths.accountSignOutEverywhere,
      {
        schema: {
          tags: ['Auth'],
          summary:
            "End every session of one's account, this one included, closing their live sockets",
          response: { 200: signedOutEverywhereSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = request.operator;
        const revoked = await endSessions(database, bus, { userId: operator.id });
        expireCookie(reply);
        request.log.info({ operatorId: operator.id, revoked }, 'an operator signed out everywhere');
        return { revoked };
      },
    );

    routes.get(
      apiPaths.accountSessions,
      {
        schema: {
          tags: ['Auth'],
          summary:
            "One's active sessions, newest first: device, address, sign-in and last use (never a token)",
          response: { 200: accountSessionListSchema, ...refusals },
        },
      },
      async (request) => {
        const operator = request.operator;
        const sessions = await activeSessionsOf(database, operator.id, {
          now: Date.now(),
          maxAgeSeconds: config.sessions.maxAgeSeconds,
        });
        return {
          items: sessions.map(({ userAgent, ...session }) => ({
            ...session,
            current: session.id === operator.sessionId,
            device: describeUserAgent(userAgent),
          })),
        };
      },
    );

    routes.post(
      apiPaths.accountSessionsEnd,
      {
        schema: {
          tags: ['Auth'],
          summary:
            "End some of one's sessions, or all but this one (the current password required), closing their live sockets",
          body: sessionsEndSchema,
          response: { 200: accountSessionsEndedSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = request.operator;
        const { currentPassword, sessionIds, allOthers } = request.body;
        await checkCurrentPassword(operator, currentPassword, request, reply);
        // Only the operator's own sessions match: another operator's id ends nothing.
        const revoked = await endSessions(
          database,
          bus,
          allOthers
            ? { userId: operator.id, exceptSessionId: operator.sessionId }
            : { userId: operator.id, sessionIds: sessionIds ?? [] },
        );
        const signedOut = !allOthers && (sessionIds ?? []).includes(operator.sessionId);
        if (signedOut) expireCookie(reply);
        request.log.info(
          { operatorId: operator.id, revoked, allOthers: Boolean(allOthers), signedOut },
          'an operator ended some of their sessions',
        );
        return { revoked, signedOut };
      },
    );
  });
}
