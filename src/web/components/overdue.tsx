import type { Client } from '../../shared/client-schema.ts';
import { daysBetween } from '../../shared/ledger-schema.ts';
import { formatInr, paiseFromAmount } from '../../shared/money.ts';
import { translate } from '../i18n/translate.tsx';
import { usePanelToday } from '../lib/panel-today.ts';

/**
 * "74 days" ("74 दिन") past a due date, counted to the panel's today (at least one: it is
 * overdue), in the chosen language: call it while drawing.
 */
export function overdueDaysText(since: string, today: string): string {
  const days = Math.max(1, daysBetween(since, today));
  return translate('shell.overdue.days', { days });
}

export function isOverdue(client: Client): client is Client & { overdueSince: string } {
  return client.overdueSince !== null && paiseFromAmount(client.overdue) > 0n;
}

// Apart, so that the panel's today is asked for only where something is overdue.
function AmountAndDays({ client }: { client: Client & { overdueSince: string } }) {
  const today = usePanelToday();
  return (
    // Each part whole on its line; a narrow column puts the days under the amount.
    <span className="balance-owing">
      <span className="text-nowrap">{formatInr(paiseFromAmount(client.overdue))}</span> ·{' '}
      <span className="text-nowrap">{overdueDaysText(client.overdueSince, today)}</span>
    </span>
  );
}

/** The list's "Overdue": "₹3,000.00 · 74 days", or "—" when nothing is overdue. */
export function OverdueAmount({ client }: { client: Client }) {
  if (!isOverdue(client)) return <span className="text-body-secondary">—</span>;
  return <AmountAndDays client={client} />;
}
