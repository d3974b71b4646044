import Badge from 'react-bootstrap/Badge';
import type { Client } from '../../../shared/client-schema.ts';
import type { PromiseStatus } from '../../../shared/dues-schema.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { formatNearDay } from '../../lib/dates.ts';

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
  return <Badge bg={STATUS[status].bg}>{STATUS[status].text}</Badge>;
}
