import type { FastifyInstance } from 'fastify';
import { errorMessage } from '../../shared/error-messages.ts';
import { apiPaths } from '../../shared/paths.ts';
import {
  backupCodesSchema,
  isTotpCode,
  normaliseCode,
  securityPolicySchema,
  twoFactorConfirmSchema,
  twoFactorPasswordSchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from '../../shared/two-factor-schema.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { fieldRefusal, HttpError } from '../http/errors.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { createCurrentPasswordCheck } from './account-routes.ts';
import { refuseUnlessAllowed } from './auth-routes.ts';
import { createRateLimiter, refundRateLimit } from './rate-limiter.ts';
import { USED_CODE_RULE, usedCodeKey } from './second-factor.ts';
import { registerSignedIn } from './session.ts';
import { newBackupCodes, storedBackupCodes } from './two-factor.ts';
import {
  confirmTwoFactorSetup,
  removeTwoFactor,
  replaceBackupCodes,
  requiresTwoFactor,
  saveTwoFactorRequirement,
  storeTwoFactorSetup,
  twoFactorSetupOf,
  twoFactorStatusOf,
} from './two-factor-repository.ts';
import { isCodeOfSecret, newTwoFactorSetup } from './two-factor-secrets.ts';

export const REQUIRED_BY_POLICY_MESSAGE = errorMessage('two-factor-required-by-policy');
export const APP_CODE_MESSAGE = errorMessage('two-factor-app-code');

/** Wrong confirmation codes per operator: the setup's secret is theirs already, but no guessing. */
const CONFIRM_RULE = { max: 10, windowSeconds: 10 * 60 };

/**
 * The signed-in operator's two-factor sign-in (docs/decisions/0026-two-factor-sign-in.md):
 * its state, a setup (the password again; better-auth's plugin makes and encrypts the secret),
 * its confirmation with a code from the app, new backup codes, and turning it off (the
 * password again). Confirming and turning off write the rows themselves: the plugin would
 * replace the session, closing the tab's live channel with it.
 */
export async function registerTwoFactorRoutes(
  app: FastifyInstance,
  { config, database, auth, readSession, bus }: RouteParts,
): Promise<void> {
  const checkCurrentPassword = createCurrentPasswordCheck(config, database);
  const consume = createRateLimiter(database);

  // Open to an operator whom the administrator's policy holds until they turn it on.
  await registerSignedIn(app, { readSession, beforeTwoFactorSetup: true }, async (routes) => {
    routes.get(
      apiPaths.accountTwoFactor,
      {
        schema: {
          tags: ['Auth'],
          summary: "One's two-factor sign-in: on or off, and how many backup codes are left",
          response: { 200: twoFactorStatusSchema, ...refusals },
        },
      },
      async (request) => twoFactorStatusOf(database, request.operator.id),
    );

    routes.post(
      apiPaths.accountTwoFactorSetup,
      {
        schema: {
          tags: ['Auth'],
          summary:
            'Begin turning on two-factor sign-in (the current password required): a new secret for the authenticator app, and backup codes; on once confirmed',
          body: twoFactorPasswordSchema,
          response: { 200: twoFactorSetupSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = request.operator;
        await checkCurrentPassword(operator, request.body.currentPassword, request, reply);
        const setup = await newTwoFactorSetup(auth, operator);
        const stored = await writeWithEvents(database, bus, (trx) =>
          storeTwoFactorSetup(trx, operator.id, setup.stored),
        );
        if (!stored) throw new HttpError(409, 'two-factor-already-on');
        request.log.info({ operatorId: operator.id }, 'an operator began a two-factor setup');
        return setup.shown;
      },
    );

    routes.post(
      apiPaths.accountTwoFactorConfirm,
      {
        schema: {
          tags: ['Auth'],
          summary:
            'Turn two-factor sign-in on: a code from the authenticator app confirms the setup',
          body: twoFactorConfirmSchema,
          response: { 200: twoFactorStatusSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = request.operator;
        const { code } = request.body;
        if (!isTotpCode(code)) throw fieldRefusal(400, 'two-factor-app-code', 'code');
        const attemptKey = `two-factor:confirm:${operator.id}`;
        const attempt = await consume(attemptKey, CONFIRM_RULE);
        refuseUnlessAllowed(attempt, reply);
        const setup = await twoFactorSetupOf(database, operator.id);
        if ((await twoFactorStatusOf(database, operator.id)).enabled) {
          throw new HttpError(409, 'two-factor-already-on');
        }
        if (!setup) throw new HttpError(409, 'two-factor-no-setup');
        const given = normaliseCode(code);
        if (!(await isCodeOfSecret(auth, setup.secret, given))) {
          throw fieldRefusal(400, 'two-factor-wrong-code', 'code');
        }
        // The code that turned it on cannot also sign in while it is still valid.
        const used = await consume(usedCodeKey(operator.id, given), USED_CODE_RULE);
        if (!used.allowed) {
          throw fieldRefusal(400, 'two-factor-code-used', 'code');
        }
        const confirmed = await writeWithEvents(database, bus, (trx) =>
          confirmTwoFactorSetup(trx, operator.id, setup),
        );
        if (!confirmed) throw new HttpError(409, 'two-factor-no-setup');
        await refundRateLimit(database, attemptKey, attempt.windowStart);
        request.log.info({ operatorId: operator.id }, 'an operator turned on two-factor sign-in');
        return twoFactorStatusOf(database, operator.id);
      },
    );

    routes.post(
      apiPaths.accountTwoFactorBackupCodes,
      {
        schema: {
          tags: ['Auth'],
          summary: 'New backup codes (the current password required); the old ones stop working',
          body: twoFactorPasswordSchema,
          response: { 200: backupCodesSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = request.operator;
        await checkCurrentPassword(operator, request.body.currentPassword, request, reply);
        const backupCodes = newBackupCodes();
        const replaced = await writeWithEvents(database, bus, (trx) =>
          replaceBackupCodes(trx, operator.id, storedBackupCodes(backupCodes)),
        );
        if (!replaced) throw new HttpError(409, 'two-factor-not-on');
        request.log.info({ operatorId: operator.id }, 'an operator made new backup codes');
        return { backupCodes };
      },
    );

    routes.post(
      apiPaths.accountTwoFactorDisable,
      {
        schema: {
          tags: ['Auth'],
          summary: 'Turn two-factor sign-in off (the current password required)',
          body: twoFactorPasswordSchema,
          response: { 200: twoFactorStatusSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = request.operator;
        await checkCurrentPassword(operator, request.body.currentPassword, request, reply);
        if (await requiresTwoFactor(database))
          throw new HttpError(409, 'two-factor-required-by-policy');
        if (await writeWithEvents(database, bus, (trx) => removeTwoFactor(trx, operator.id))) {
          request.log.info(
            { operatorId: operator.id },
            'an operator turned off two-factor sign-in',
          );
        }
        return twoFactorStatusOf(database, operator.id);
      },
    );
  });

  await registerSignedIn(app, { readSession, administrator: true }, async (routes) => {
    routes.get(
      apiPaths.settingsSecurity,
      {
        schema: {
          tags: ['Settings'],
          summary: 'Whether every operator must sign in with a second factor (administrator)',
          response: { 200: securityPolicySchema, ...refusals },
        },
      },
      async () => ({ requireTwoFactor: await requiresTwoFactor(database) }),
    );

    routes.put(
      apiPaths.settingsSecurity,
      {
        schema: {
          tags: ['Settings'],
          summary:
            'Require two-factor sign-in of every operator, or not (administrator; their own must be on first)',
          body: securityPolicySchema,
          response: { 200: securityPolicySchema, ...refusals },
        },
      },
      async (request) => {
        const { requireTwoFactor } = request.body;
        // Else the administrator would lock themselves out of everything but the setup.
        if (requireTwoFactor && !(await twoFactorStatusOf(database, request.operator.id)).enabled) {
          throw new HttpError(409, 'two-factor-require-own-first');
        }
        await writeWithEvents(database, bus, (trx) =>
          saveTwoFactorRequirement(trx, requireTwoFactor),
        );
        request.log.info(
          { by: request.operator.id, requireTwoFactor },
          'an administrator changed the two-factor policy',
        );
        return { requireTwoFactor };
      },
    );
  });
}
