// What the account, sessions and reset pages say. Apart from lib/messages.ts: only those
// lazily loaded pages need it, and every byte of the first page counts
// (docs/decisions/0013-bundle-budgets.md).

/** Sessions ended, an address or password changed: long enough to read how many ended. */
export const ACCOUNT_MESSAGE_SECONDS = 6;

/** "1 session", "3 sessions". */
export function sessionsText(count: number): string {
  return count === 1 ? '1 session' : `${count} sessions`;
}
