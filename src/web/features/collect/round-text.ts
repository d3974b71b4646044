import type { CollectItem, CollectReason } from '../../../shared/dues-schema.ts';
import { daysBetween } from '../../../shared/ledger-schema.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { translate } from '../../i18n/translate.tsx';
import { formatNearDay } from './promise-text.tsx';

/** Why a client is on the round `on`, in words. */
function reasonText(reason: CollectReason, item: CollectItem, on: string): string {
  const { client, promise } = item;
  switch (reason) {
    case 'promise-due': {
      if (!promise) return translate('collect.reason.promiseDueToday');
      const amount = formatInr(paiseFromAmount(promise.amount));
      return promise.by === on
        ? translate('collect.reason.promisedToday', { amount })
        : translate('collect.reason.promised', { amount, day: formatNearDay(promise.by, on) });
    }
    case 'promise-broken':
      return promise
        ? translate('collect.reason.brokenWasDue', { day: formatNearDay(promise.by, on) })
        : translate('collect.reason.broken');
    case 'overdue': {
      const amount = formatInr(paiseFromAmount(item.overdue));
      const overdue = client.overdueSince
        ? translate('collect.reason.overdueDays', {
            amount,
            days: daysBetween(client.overdueSince, on),
          })
        : translate('collect.reason.overdue', { amount });
      const reminded = client.lastRemindedOn
        ? translate('collect.reason.notRemindedFor', {
            days: daysBetween(client.lastRemindedOn, on),
          })
        : translate('collect.reason.neverReminded');
      return translate('collect.reason.overdueAndReminded', { overdue, reminded });
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
