import type { CollectItem, CollectReason } from '../../../shared/dues-schema.ts';
import { daysBetween } from '../../../shared/ledger-schema.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { formatNearDay } from './promise-text.tsx';

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

/** Why a client is on the round `on`, in words. */
function reasonText(reason: CollectReason, item: CollectItem, on: string): string {
  const { client, promise } = item;
  switch (reason) {
    case 'promise-due': {
      if (!promise) return 'Promise due today';
      const by = promise.by === on ? 'today' : formatNearDay(promise.by, on);
      return `Promised ${formatInr(paiseFromAmount(promise.amount))} by ${by}`;
    }
    case 'promise-broken':
      return promise
        ? `Promise broken (was due ${formatNearDay(promise.by, on)})`
        : 'Promise broken';
    case 'overdue': {
      const overdue = `${formatInr(paiseFromAmount(item.overdue))} overdue`;
      const since = client.overdueSince ? ` ${days(daysBetween(client.overdueSince, on))}` : '';
      const reminded = client.lastRemindedOn
        ? `not reminded for ${days(daysBetween(client.lastRemindedOn, on))}`
        : 'never reminded';
      return `${overdue}${since}, ${reminded}`;
    }
  }
}

/**
 * The reasons a client is on the round, in words: "Promised ₹2,000.00 by today", "Promise
 * broken (was due 24 Nov)", "₹3,000.00 overdue 74 days, not reminded for 7 days".
 */
export function reasonsText(item: CollectItem, on: string): string[] {
  return item.reasons.map((reason) => reasonText(reason, item, on));
}
