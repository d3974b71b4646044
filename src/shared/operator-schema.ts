import * as z from 'zod/mini';
import { languageSchema } from './languages.ts';
import { validationMessage } from './validation-messages.ts';

/** The panel's first account is its administrator; only administrators change panel settings. */
export const OPERATOR_ROLES = ['admin', 'operator'] as const;
export const operatorRoleSchema = z.enum(OPERATOR_ROLES, {
  error: validationMessage('role.invalid'),
});
export type OperatorRole = z.infer<typeof operatorRoleSchema>;

/** Accounts made before roles existed read as plain operators. */
export function operatorRoleOf(stored: string | null | undefined): OperatorRole {
  return stored === 'admin' ? 'admin' : 'operator';
}

export const operatorSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: operatorRoleSchema,
});
export type OperatorSummary = z.infer<typeof operatorSchema>;

export const roleChangeSchema = z.strictObject({ role: operatorRoleSchema });

/**
 * What sign-up, sign-in and get-session answer about who is signed in (no token ever).
 * `twoFactorSetupRequired` is there only when the administrator requires two-factor sign-in
 * and this operator has not turned it on: until they do, only that setup is open to them.
 */
export const sessionAnswerSchema = z.object({
  /** `language`: the pages' language the account keeps (docs/decisions/0037-i18n-library.md). */
  user: z.extend(operatorSchema, { language: z.optional(languageSchema) }),
  twoFactorSetupRequired: z.optional(z.literal(true)),
});
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;

/**
 * The session answer as the server sends it: the account's language always there. The web app
 * reads it through sessionAnswerSchema, where it is optional until its test answers carry it.
 */
export const sentSessionAnswerSchema = z.object({
  user: z.extend(operatorSchema, { language: languageSchema }),
  twoFactorSetupRequired: z.optional(z.literal(true)),
});
export type SentSessionAnswer = z.infer<typeof sentSessionAnswerSchema>;

export const LAST_ADMINISTRATOR_MESSAGE =
  'The panel needs at least one administrator: make someone else an administrator first';
