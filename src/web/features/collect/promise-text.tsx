import type { Client } from '../../../shared/client-schema.ts';
import type { PromiseStatus } from '../../../shared/dues-schema.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { formatDay, todayHere } from '../../lib/dates.ts';

const shortDayFormat = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/** A date near `today`, short: "28 Nov" in the same year, "28 Nov 2025" otherwise. */
export function formatNearDay(on: string, today = todayHere()): string {
  return on.slice(0, 4) === today.slice(0, 4)
    ? shortDayFormat.format(new Date(`${on}T00:00:00Z`))
    : formatDay(on);
}

/** "Promised: ₹5,000.00 by 28 Nov": the words for a client's promise wherever it shows. */
export function promisedText(promise: { amount: string; by: string }, today?: string): string {
  return `Promised: ${formatInr(paiseFromAmount(promise.amount))} by ${formatNearDay(promise.by, today)}`;
}

/**
 * What a promise would be for, unless the operator changes it: what is overdue, else the
 * whole balance (nothing when the client owes nothing).
 */
export function promiseAmountFor(client: Client): string {
  if (paiseFromAmount(client.overdue) > 0n) return client.overdue;
  return paiseFromAmount(client.balance) > 0n ? client.balance : '';
}

const STATUS: Record<PromiseStatus, { text: string; bg: string }> = {
  open: { text: 'Open', bg: 'primary' },
  kept: { text: 'Kept', bg: 'success' },
  broken: { text: 'Broken', bg: 'danger' },
  replaced: { text: 'Replaced', bg: 'secondary' },
};

/** A promise's state, in words and colour: "Broken" never shows as a colour alone. */
export function PromiseStatusBadge({ status }: { status: PromiseStatus }) {
  return <span className={`badge text-bg-${STATUS[status].bg}`}>{STATUS[status].text}</span>;
}
