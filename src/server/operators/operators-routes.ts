import type { FastifyInstance } from 'fastify';
import * as z from 'zod/mini';
import { errorMessage } from '../../shared/error-messages.ts';
import {
  operatorDeactivatedSchema,
  operatorListItemSchema,
  operatorListSchema,
} from '../../shared/operator-list-schema.ts';
import { operatorSchema, roleChangeSchema } from '../../shared/operator-schema.ts';
import { resetLinkSchema, sessionsEndedSchema } from '../../shared/password-reset-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { twoFactorPasswordSchema } from '../../shared/two-factor-schema.ts';
import { createCurrentPasswordCheck } from '../auth/account-routes.ts';
import { endSessions } from '../auth/end-sessions.ts';
import { issueResetLink } from '../auth/password-reset.ts';
import { keepOnlyNewestResetLink, withdrawResetLinks } from '../auth/reset-links-repository.ts';
import { registerSignedIn } from '../auth/session.ts';
import { deleteSessions } from '../auth/sessions-repository.ts';
import { removeTwoFactor } from '../auth/two-factor-repository.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { HttpError } from '../http/errors.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import {
  changeRole,
  deactivateOperator,
  findListedOperator,
  findOperator,
  isDeactivated,
  listOperators,
  reactivateOperator,
} from './operators-repository.ts';

export const RESET_LINK_FOR_DEACTIVATED_MESSAGE = errorMessage('reset-link-for-deactivated');

export const TWO_FACTOR_OFF_SELF_MESSAGE = errorMessage('two-factor-off-self');

/**
 * Who may change the panel: administrators see every operator, grant or remove the role,
 * end operators' sessions, issue reset links for forgotten passwords, and deactivate (or
 * reactivate) the account of someone who left.
 */
export async function registerOperatorsRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus, auth }: RouteParts,
): Promise<void> {
  const checkCurrentPassword = createCurrentPasswordCheck(config, database);
  await registerSignedIn(app, { readSession, administrator: true }, async (routes) => {
    routes.get(
      apiPaths.operators,
      {
        schema: {
          tags: ['Operators'],
          summary: 'List the operators (administrator)',
          response: { 200: operatorListSchema, ...refusals },
        },
      },
      async () => ({ items: await listOperators(database) }),
    );

    routes.put(
      '/api/operators/:id/role',
      {
        schema: {
          tags: ['Operators'],
          summary: "Change an operator's role (administrator)",
          params: z.object({ id: z.string() }),
          body: roleChangeSchema,
          response: { 200: operatorSchema, ...refusals },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { role } = request.body;
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const result = await changeRole(trx, id, role);
          if (result.kind === 'changed') {
            const event = { type: 'operator.updated' as const, operator: result.operator };
            await publish({ kind: 'event', ownerId: null, userId: id, event });
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'operator-not-found');
        if (outcome.kind === 'last-administrator') {
          throw new HttpError(409, 'last-administrator');
        }
        request.log.info(
          { operatorId: id, by: request.operator.id, role },
          "an administrator changed an operator's role",
        );
        return outcome.operator;
      },
    );

    // The administrator's own session stays (ASVS 5.0 7.4.5): they keep the panel they act in.
    routes.post(
      '/api/operators/:id/sign-out',
      {
        schema: {
          tags: ['Operators'],
          summary: 'End every session of an operator, closing their live sockets (administrator)',
          params: z.object({ id: z.string() }),
          response: { 200: sessionsEndedSchema, ...refusals },
        },
      },
      async (request) => {
        const operator = await findOperator(database, request.params.id);
        if (!operator) throw new HttpError(404, 'operator-not-found');
        const revoked = await endSessions(database, bus, {
          userId: operator.id,
          exceptSessionId: request.operator.sessionId,
        });
        request.log.info(
          { operatorId: operator.id, by: request.operator.id, revoked },
          'an administrator ended sessions',
        );
        return { revoked };
      },
    );

    routes.post(
      apiPaths.operatorsSignOutAll,
      {
        schema: {
          tags: ['Operators'],
          summary: "End every operator's sessions but the administrator's own (administrator)",
          response: { 200: sessionsEndedSchema, ...refusals },
        },
      },
      async (request) => {
        const revoked = await endSessions(database, bus, {
          exceptSessionId: request.operator.sessionId,
        });
        request.log.info(
          { by: request.operator.id, revoked },
          "an administrator ended every operator's sessions",
        );
        return { revoked };
      },
    );

    routes.post(
      '/api/operators/:id/reset-link',
      {
        schema: {
          tags: ['Operators'],
          summary:
            'Issue a one-time link (1 hour) with which an operator sets a new password (administrator)',
          params: z.object({ id: z.string() }),
          response: { 200: resetLinkSchema, ...refusals },
        },
      },
      async (request) => {
        const operator = await findOperator(database, request.params.id);
        if (!operator) throw new HttpError(404, 'operator-not-found');
        // It would not work (the reset refuses them), and deactivating withdrew their links.
        if (await isDeactivated(database, operator.id)) {
          throw new HttpError(409, 'reset-link-for-deactivated');
        }
        const link = await issueResetLink(auth, config.publicUrl, operator);
        await writeWithEvents(database, bus, (trx) => keepOnlyNewestResetLink(trx, operator.id));
        request.log.info(
          { operatorId: operator.id, by: request.operator.id },
          'an administrator issued a reset link',
        );
        return link;
      },
    );

    // ASVS 5.0 7.4.2: a deactivated account keeps no session. The row, the end of every
    // session and the withdrawal of reset links commit together; the live sockets close on
    // every instance once they have (docs/decisions/0025-deactivating-operators.md).
    routes.post(
      '/api/operators/:id/deactivate',
      {
        schema: {
          tags: ['Operators'],
          summary:
            'Deactivate an operator: every session ends, and they cannot sign in until reactivated (administrator)',
          params: z.object({ id: z.string() }),
          response: { 200: operatorDeactivatedSchema, ...refusals },
        },
      },
      async (request) => {
        const { id } = request.params;
        // The administrator would lock themselves out mid-request; another one can do it.
        if (id === request.operator.id) throw new HttpError(409, 'deactivate-self');
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const result = await deactivateOperator(trx, id, {
            id: request.operator.id,
            at: new Date(),
          });
          if (result.kind !== 'deactivated') return { result, revoked: 0 };
          const ended = await deleteSessions(trx, { userId: id });
          await withdrawResetLinks(trx, id);
          await publish({ kind: 'sessions-ended', sessionIds: ended.ids });
          return { result, revoked: ended.active };
        });
        const { result, revoked } = outcome;
        if (result.kind === 'not-found') throw new HttpError(404, 'operator-not-found');
        if (result.kind === 'last-administrator') {
          throw new HttpError(409, 'last-active-administrator');
        }
        request.log.info(
          { operatorId: id, by: request.operator.id, revoked },
          'an administrator deactivated an operator',
        );
        return { ...result.operator, revoked };
      },
    );

    routes.post(
      '/api/operators/:id/reactivate',
      {
        schema: {
          tags: ['Operators'],
          summary:
            'Reactivate a deactivated operator: they sign in again with their old password (administrator)',
          params: z.object({ id: z.string() }),
          response: { 200: operatorListItemSchema, ...refusals },
        },
      },
      async (request) => {
        const { id } = request.params;
        const operator = await writeWithEvents(database, bus, (trx) => reactivateOperator(trx, id));
        if (!operator) throw new HttpError(404, 'operator-not-found');
        request.log.info(
          { operatorId: id, by: request.operator.id },
          'an administrator reactivated an operator',
        );
        return operator;
      },
    );

    // For an operator who lost both their authenticator and their backup codes: the
    // administrator, who knows them, stands in for the factor (ASVS 6.4.4). With their own
    // password: a screen left signed in must not strip another account of its second factor.
    routes.post(
      '/api/operators/:id/two-factor/disable',
      {
        schema: {
          tags: ['Operators'],
          summary:
            "Turn off an operator's two-factor sign-in, when they lost their authenticator and backup codes (administrator)",
          params: z.object({ id: z.string() }),
          body: twoFactorPasswordSchema,
          response: { 200: operatorListItemSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        // One's own is turned off in the account settings, where it stays on while required.
        if (id === request.operator.id) throw new HttpError(409, 'two-factor-off-self');
        await checkCurrentPassword(request.operator, request.body.currentPassword, request, reply);
        if (!(await findListedOperator(database, id))) {
          throw new HttpError(404, 'operator-not-found');
        }
        if (await writeWithEvents(database, bus, (trx) => removeTwoFactor(trx, id))) {
          request.log.info(
            { operatorId: id, by: request.operator.id },
            "an administrator turned off an operator's two-factor sign-in",
          );
        }
        const operator = await findListedOperator(database, id);
        if (!operator) throw new HttpError(404, 'operator-not-found');
        return operator;
      },
    );
  });
}
