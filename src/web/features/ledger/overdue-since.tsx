import type { Client } from '../../../shared/client-schema.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { isOverdue, overdueDaysText } from '../../components/overdue.tsx';
import { useT } from '../../i18n/translate.tsx';
import { formatDay } from '../../lib/dates.ts';
import { usePanelToday } from '../../lib/panel-today.ts';

function SinceLine({ client }: { client: Client & { overdueSince: string } }) {
  const t = useT();
  const today = usePanelToday();
  return (
    <p className="balance-owing fw-semibold mb-1">
      {t('ledger.overdueSince', {
        amount: formatInr(paiseFromAmount(client.overdue)),
        day: formatDay(client.overdueSince),
        days: overdueDaysText(client.overdueSince, today),
      })}
    </p>
  );
}

/** On a client's page: "₹3,000.00 overdue since 12 Sept 2026, 74 days"; nothing when none is. */
export function OverdueSince({ client }: { client: Client }) {
  return isOverdue(client) ? <SinceLine client={client} /> : null;
}
