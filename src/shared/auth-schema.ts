import * as z from 'zod/mini';
import { languageSchema } from './languages.ts';
import { storableText, wellFormedText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;

export const emailSchema = z.pipe(
  storableText(
    'email',
    {},
    z.trim(),
    z.minLength(1, validationMessage('email.required')),
    z.maxLength(EMAIL_MAX_LENGTH, validationMessage('email.too-long')),
  ),
  z.email(validationMessage('email.invalid')),
);

/** Sign-in only needs something to check: the rules apply when the password is chosen. */
export const signInSchema = z.strictObject({
  email: emailSchema,
  password: wellFormedText('password', z.minLength(1, validationMessage('password.required'))),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const newPasswordSchema = wellFormedText(
  'password',
  z.minLength(1, validationMessage('password.required')),
  z.minLength(PASSWORD_MIN_LENGTH, validationMessage('password.too-short')),
  z.maxLength(PASSWORD_MAX_LENGTH, validationMessage('password.too-long')),
);

export const signUpSchema = z.strictObject({
  email: emailSchema,
  password: newPasswordSchema,
  name: z.optional(
    storableText('name', {}, z.trim(), z.maxLength(100, validationMessage('name.too-long'))),
  ),
  /**
   * The new account's language: the one the visitor is reading the pages in. Without it, the
   * request's Accept-Language decides.
   */
  language: z.optional(languageSchema),
  /**
   * An invitation to a book (issue 23): the new account joins it, even while registrations are
   * closed; its own empty book is made too.
   */
  inviteToken: z.optional(z.string().check(z.maxLength(200))),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const BREACHED_PASSWORD_MESSAGE = validationMessage('password-breached');
export const COMMON_PASSWORD_MESSAGE = validationMessage('password-common');
export const CONTEXT_PASSWORD_MESSAGE = validationMessage('password-context');

export const PASSWORD_RULES_TEXT = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters; any characters you like, but not one of the most common passwords, nor built on the panel's name or your e-mail address.`;

export const PASSWORDS_DIFFER_MESSAGE = validationMessage('passwords-differ');

/**
 * A form's check that the new password was typed the same twice (`repeat`), shown under the
 * repeat field. Only forms have it: the API takes the password once.
 */
export function typedTwice<Values extends { repeat: string }>(field: keyof Values) {
  return z.refine<Values>((values) => values[field] === values.repeat, {
    error: PASSWORDS_DIFFER_MESSAGE,
    path: ['repeat'],
  });
}
