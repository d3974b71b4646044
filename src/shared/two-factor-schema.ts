import * as z from 'zod/mini';
import { currentPasswordSchema } from './account-schema.ts';
import { storableText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

// Two-factor sign-in (docs/decisions/0026-two-factor-sign-in.md): a code from an
// authenticator app (TOTP, RFC 6238: 6 digits, a new one every 30 seconds), or one of ten
// single-use backup codes. Apart from account-schema.ts so that only the pages that need it
// load it.

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const BACKUP_CODE_COUNT = 10;

/** Longer than any code, with room for spaces and dashes as people type them. */
const CODE_MAX_LENGTH = 64;

export const CODE_REQUIRED_MESSAGE = validationMessage('code.missing');
export const WRONG_CODE_MESSAGE = validationMessage('two-factor-wrong-code');
export const CODE_ALREADY_USED_MESSAGE = validationMessage('two-factor-code-used');
export const SIGN_IN_AGAIN_MESSAGE = 'This sign-in has expired: sign in again with your password';

/** A code as typed: spaces and dashes do not count, letters match in any case. */
export function normaliseCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toLowerCase();
}

/** Six digits, however spaced: an authenticator app's code; anything else may be a backup code. */
export function isTotpCode(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(normaliseCode(code));
}

export const twoFactorCodeSchema = storableText(
  'code',
  {},
  z.trim(),
  z.minLength(1, CODE_REQUIRED_MESSAGE),
  z.maxLength(CODE_MAX_LENGTH, WRONG_CODE_MESSAGE),
);

/** The second step of signing in: a code from the app, or a backup code. */
export const secondFactorSchema = z.strictObject({ code: twoFactorCodeSchema });
export type SecondFactorInput = z.infer<typeof secondFactorSchema>;

/**
 * What sign-in answers when the password was right but the account asks for a second factor:
 * no session yet, only a short-lived cookie that the second step needs.
 */
export const secondFactorRequiredSchema = z.object({ secondFactorRequired: z.literal(true) });

/** The signed-in operator's two-factor sign-in: on or off, and how many backup codes are left. */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  backupCodesLeft: z.int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** Setting up, turning off, and new backup codes each need the current password. */
export const twoFactorPasswordSchema = z.strictObject({ currentPassword: currentPasswordSchema });
export type TwoFactorPasswordInput = z.infer<typeof twoFactorPasswordSchema>;

/**
 * A setup begun: the secret for the authenticator app (as an otpauth:// URI for a QR code, and
 * as text to type in), and the backup codes. Two-factor sign-in is on only once a code from
 * the app confirms it.
 */
export const twoFactorSetupSchema = z.object({
  uri: z.string(),
  secret: z.string(),
  backupCodes: z.array(z.string()),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** A code from the app, confirming the setup. */
export const twoFactorConfirmSchema = z.strictObject({ code: twoFactorCodeSchema });
export type TwoFactorConfirmInput = z.infer<typeof twoFactorConfirmSchema>;

export const backupCodesSchema = z.object({ backupCodes: z.array(z.string()) });

/**
 * The administrator's policy: whether every operator must sign in with a second factor. Its
 * own call, apart from the panel's settings, whose shape is fixed (docs/api.md).
 */
export const securityPolicySchema = z.strictObject({
  requireTwoFactor: z.boolean({
    error: validationMessage('param.true-or-false', { name: 'requireTwoFactor' }),
  }),
});
export type SecurityPolicy = z.infer<typeof securityPolicySchema>;

export const TWO_FACTOR_SETUP_REQUIRED_MESSAGE =
  'Your administrator requires two-factor sign-in: turn it on to go on';
export const REQUIRE_OWN_FIRST_MESSAGE =
  'Turn on your own two-factor sign-in first, in your account settings';
