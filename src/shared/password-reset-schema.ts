import * as z from 'zod/mini';
import { newPasswordSchema } from './auth-schema.ts';
import { validationMessage } from './validation-messages.ts';

/** Tokens are 24 characters; anything much longer is not one, and is refused unread. */
const RESET_TOKEN_MAX_LENGTH = 128;

const resetTokenSchema = z
  .string({ error: validationMessage('resetToken.missing') })
  .check(
    z.minLength(1, validationMessage('resetToken.missing')),
    z.maxLength(RESET_TOKEN_MAX_LENGTH, validationMessage('resetToken.invalid')),
  );

/** What the reset page sends first, to learn whether its link still works and for whom. */
export const resetLinkCheckSchema = z.strictObject({ token: resetTokenSchema });

export const resetLinkHolderSchema = z.object({
  email: z.string(),
  expiresAt: z.iso.datetime(),
});
export type ResetLinkHolder = z.infer<typeof resetLinkHolderSchema>;

/** The new password, chosen by the operator on the reset page: never by an administrator. */
export const passwordResetSchema = z.strictObject({
  token: resetTokenSchema,
  password: newPasswordSchema,
});

/** A reset link as an administrator receives it: shown once, never stored readable. */
export const resetLinkSchema = z.object({ url: z.string(), expiresAt: z.iso.datetime() });
export type ResetLink = z.infer<typeof resetLinkSchema>;

/** How many active sessions an administrator's "sign out" ended. */
export const sessionsEndedSchema = z.object({ revoked: z.int() });

export const RESET_LINK_INVALID_MESSAGE =
  'This reset link has expired or was already used. Ask an administrator for a new one.';
