import { translate } from '../i18n/translate.tsx';

// What the account, sessions and reset pages say. Apart from lib/messages.ts: only those
// lazily loaded pages need it, and every byte of the first page counts
// (docs/decisions/0013-bundle-budgets.md).

/** Sessions ended, an address or password changed: long enough to read how many ended. */
export const ACCOUNT_MESSAGE_SECONDS = 6;

/** "1 session", "3 sessions", in the chosen language. */
export function sessionsText(count: number): string {
  return translate('shell.sessions', { count });
}
