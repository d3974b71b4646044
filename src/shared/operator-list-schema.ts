import * as z from 'zod/mini';
import { operatorSchema } from './operator-schema.ts';

// The administrator's list of operators and its actions, apart from operator-schema.ts: the
// login page and the dashboard load that module (who is signed in), while only the lazy
// settings page (and the server) needs these.

/**
 * An operator as the administrator's list shows them: with when they were deactivated (ISO
 * 8601, UTC), or null while they may sign in. A deactivated operator's account and clients
 * stay; they cannot sign in until reactivated.
 */
export const operatorListItemSchema = z.extend(operatorSchema, {
  deactivatedAt: z.nullable(z.string()),
  /** Whether signing in asks them for a code from an authenticator app as well. */
  twoFactorEnabled: z.boolean(),
});
export type OperatorListItem = z.infer<typeof operatorListItemSchema>;

export const operatorListSchema = z.object({ items: z.array(operatorListItemSchema) });

/** A deactivation's answer: the operator as listed now, and how many active sessions ended. */
export const operatorDeactivatedSchema = z.extend(operatorListItemSchema, { revoked: z.int() });

/** What sign-in answers (403) to a deactivated operator who gave the right password. */
export const ACCOUNT_DEACTIVATED_MESSAGE = 'This account is deactivated; ask your administrator';

export const DEACTIVATE_SELF_MESSAGE =
  'You cannot deactivate your own account: another administrator must do it';

export const LAST_ACTIVE_ADMINISTRATOR_MESSAGE =
  'The panel needs at least one active administrator: make someone else an administrator first';
