import * as z from 'zod/mini';
import { emailSchema, newPasswordSchema, PASSWORD_MAX_LENGTH } from './auth-schema.ts';
import { sessionAnswerSchema } from './operator-schema.ts';
import { storableText, wellFormedText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

/** The password the operator has now: only checked against the stored hash. */
export const currentPasswordSchema = wellFormedText(
  'currentPassword',
  z.minLength(1, validationMessage('currentPassword.missing')),
  // No stored password is longer; a longer one is wrong without being hashed.
  z.maxLength(PASSWORD_MAX_LENGTH, validationMessage('wrong-current-password')),
);

/** A new password, chosen by the signed-in operator: the sign-up rules apply. */
export const passwordChangeSchema = z.strictObject({
  currentPassword: currentPasswordSchema,
  newPassword: newPasswordSchema,
});
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

export const emailChangeSchema = z.strictObject({
  email: emailSchema,
  currentPassword: currentPasswordSchema,
});
export type EmailChangeInput = z.infer<typeof emailChangeSchema>;

/** A password change: how many of the operator's other sessions it ended. */
export const passwordChangedSchema = z.object({ revoked: z.int() });

/** An e-mail change answers who is signed in now, as sign-in does. */
export const emailChangedSchema = sessionAnswerSchema;

/** "Sign out everywhere": how many active sessions ended, this one included. */
export const signedOutEverywhereSchema = z.object({ revoked: z.int() });

export const WRONG_CURRENT_PASSWORD_MESSAGE = validationMessage('wrong-current-password');
export const SAME_PASSWORD_MESSAGE = validationMessage('same-password');
export const EMAIL_TAKEN_MESSAGE = validationMessage('email-taken');

/**
 * One of the operator's active sessions, as the sessions list shows it: never its token.
 * `lastActiveAt` moves on with use at most every few minutes (docs/decisions/0022), so it is
 * as recent as that.
 */
export const accountSessionSchema = z.object({
  id: z.string(),
  /** The session this request came with: "this device". */
  current: z.boolean(),
  /** Who signed in, in a few words ("Chrome on Linux"), read from the browser's user agent. */
  device: z.string(),
  ipAddress: z.nullable(z.string()),
  createdAt: z.iso.datetime(),
  lastActiveAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

/** The operator's active sessions, newest first. */
export const accountSessionListSchema = z.object({ items: z.array(accountSessionSchema) });

/** The most sessions one request names. */
export const MAX_SESSIONS_TO_END = 100;
/** Session ids are 32 characters; anything much longer is not one. */
const SESSION_ID_MAX_LENGTH = 128;

export const NO_SESSIONS_NAMED_MESSAGE = validationMessage('sessions.none-named');

/**
 * Sessions to end, with the current password: the ones named (`sessionIds`, this one may be
 * among them), or every one but this (`allOthers`), never both.
 */
export const sessionsEndSchema = z
  .strictObject({
    currentPassword: currentPasswordSchema,
    sessionIds: z.optional(
      z
        .array(
          storableText(
            'sessionId',
            {},
            z.minLength(1, validationMessage('sessionId.empty')),
            z.maxLength(SESSION_ID_MAX_LENGTH, validationMessage('sessionId.invalid')),
          ),
          { error: validationMessage('sessionIds.not-list') },
        )
        .check(
          z.minLength(1, validationMessage('sessionIds.none')),
          z.maxLength(MAX_SESSIONS_TO_END, validationMessage('sessionIds.too-many')),
        ),
    ),
    allOthers: z.optional(z.literal(true, { error: validationMessage('allOthers.invalid') })),
  })
  .check(
    z.refine((body) => (body.sessionIds === undefined) !== (body.allOthers === undefined), {
      error: NO_SESSIONS_NAMED_MESSAGE,
      path: ['sessionIds'],
    }),
  );
export type SessionsEndInput = z.infer<typeof sessionsEndSchema>;

/** How many active sessions ended, and whether this request's own was one of them. */
export const accountSessionsEndedSchema = z.object({ revoked: z.int(), signedOut: z.boolean() });
