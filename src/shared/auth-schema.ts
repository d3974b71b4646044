import * as z from 'zod/mini';
import { languageSchema } from './languages.ts';
import { storableText, wellFormedText } from './text.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 254;

export const emailSchema = z.pipe(
  storableText(
    'Email',
    {},
    z.trim(),
    z.minLength(1, 'Email is required'),
    z.maxLength(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`),
  ),
  z.email('Enter a valid email address'),
);

/** Sign-in only needs something to check: the rules apply when the password is chosen. */
export const signInSchema = z.object({
  email: emailSchema,
  password: wellFormedText('Password', z.minLength(1, 'Password is required')),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const newPasswordSchema = wellFormedText(
  'Password',
  z.minLength(1, 'Password is required'),
  z.minLength(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`),
  z.maxLength(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`),
);

export const signUpSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  name: z.optional(
    storableText('Name', {}, z.trim(), z.maxLength(100, 'Name must be at most 100 characters')),
  ),
  /**
   * The new account's language: the one the visitor is reading the pages in. Without it, the
   * request's Accept-Language decides.
   */
  language: z.optional(languageSchema),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const BREACHED_PASSWORD_MESSAGE =
  'This password has appeared in a data breach, so others may try it; choose another';

export const COMMON_PASSWORD_MESSAGE =
  'This password is one of the most common passwords; choose another';

export const CONTEXT_PASSWORD_MESSAGE =
  "This password is built on the panel's name, a role or your e-mail address; choose another";

export const PASSWORD_RULES_TEXT = `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters; any characters you like, but not one of the most common passwords, nor built on the panel's name or your e-mail address.`;

export const PASSWORDS_DIFFER_MESSAGE = 'The two passwords differ';

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
