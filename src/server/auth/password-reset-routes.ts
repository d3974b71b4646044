import { APIError } from 'better-auth/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  passwordResetSchema,
  resetLinkCheckSchema,
  resetLinkHolderSchema,
} from '../../shared/password-reset-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { HttpError } from '../http/errors.ts';
import { PUBLIC_ROUTE } from '../http/openapi.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { isDeactivated } from '../operators/operators-repository.ts';
import { refuseUnacceptablePassword } from './auth-routes.ts';
import { findResetLink } from './password-reset.ts';
import { withdrawResetLinks } from './reset-links-repository.ts';
import { deleteSessions, sessionIdsOf } from './sessions-repository.ts';

/**
 * The reset page's two calls, open to anyone holding a link (the token is the credential:
 * 143 random bits, one use, one hour). They wrap better-auth's reset rather than expose its
 * endpoint (docs/decisions/0003-auth-endpoints-allowlist.md), so that the password rules
 * and the error shape are the API's own.
 */
export async function registerPasswordResetRoutes(
  app: FastifyInstance,
  { config, database, auth, bus }: RouteParts,
): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  async function holderOf(token: string) {
    const holder = await findResetLink(auth, token);
    if (!holder) throw new HttpError(400, 'reset-link-not-valid');
    // Deactivating withdraws the operator's links; this also stops one issued in a race
    // with it (or by the reset-link command), so a new password is no way back in.
    if (await isDeactivated(database, holder.userId)) {
      throw new HttpError(400, 'account-deactivated');
    }
    return holder;
  }

  routes.post(
    apiPaths.passwordResetCheck,
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Auth'],
        summary: 'Whether a reset link still works, and whose it is',
        body: resetLinkCheckSchema,
        response: { 200: resetLinkHolderSchema, ...refusals },
      },
    },
    async (request) => {
      const { email, expiresAt } = await holderOf(request.body.token);
      return { email, expiresAt };
    },
  );

  routes.post(
    apiPaths.passwordReset,
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Auth'],
        summary: 'Set a new password with a reset link; every session of the account ends',
        body: passwordResetSchema,
        response: { 200: z.object({ success: z.boolean() }), ...refusals },
      },
    },
    async (request) => {
      const { token, password } = request.body;
      const holder = await holderOf(token);
      await refuseUnacceptablePassword(config.breachedPasswordsFile, password, {
        email: holder.email,
      });
      // Read first: better-auth deletes these rows, and their live sockets must close too.
      const sessionIds = await sessionIdsOf(database, holder.userId);
      try {
        // Spends the token (once, even against a concurrent use), then revokes the sessions
        // and stores the new password's hash (revokeSessionsOnPasswordReset).
        await auth.api.resetPassword({ body: { token, newPassword: password } });
      } catch (error) {
        if (error instanceof APIError && error.statusCode < 500) {
          throw new HttpError(400, 'reset-link-not-valid');
        }
        throw error;
      }
      // Their sockets close on every instance at once: better-auth's write has committed.
      if (sessionIds.length > 0) await bus.publish({ kind: 'sessions-ended', sessionIds });
      // A session that slipped in since ends too, and so do the operator's other links.
      await writeWithEvents(database, bus, async (trx, publish) => {
        const ended = await deleteSessions(trx, { userId: holder.userId });
        await withdrawResetLinks(trx, holder.userId);
        await publish({ kind: 'sessions-ended', sessionIds: ended.ids });
      });
      return { success: true };
    },
  );
}
