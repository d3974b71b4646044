import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { Entry, EntryKind } from '../../../shared/ledger-schema.ts';
import { formatAmount, formatSignedInr, paiseFromAmount } from '../../../shared/money.ts';
import { EmailAddress } from '../../components/email-address.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { Balance, balanceText } from '../../components/money.tsx';
import type { MessageId } from '../../i18n/catalogues.ts';
import { errorText } from '../../i18n/errors.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { formatDay } from '../../lib/dates.ts';
import { useEntries } from './ledger-api.ts';

export const KIND_LABELS: Record<EntryKind, MessageId> = {
  opening: 'ledger.kind.opening',
  charge: 'ledger.kind.charge',
  payment: 'ledger.kind.payment',
  adjustment: 'ledger.kind.adjustment',
};

/**
 * An entry's change to the balance, signed as it moved it: "+₹500.00" in red adds to what
 * is owed (a charge), "−₹500.00" in green takes from it (a payment).
 */
export function EntryAmount({ amount }: { amount: string }) {
  const paise = paiseFromAmount(amount);
  const adds = paise > 0n;
  return (
    // One piece: at 390 px the sign wrapped onto a line of its own, away from its amount.
    <span className={adds ? 'balance-owing text-nowrap' : 'balance-clear text-nowrap'}>
      {formatSignedInr(paise)}
    </span>
  );
}

/** For an adjustment, what the balance was before it: "from ₹1,000.00". */
function adjustedFrom(entry: Entry): string | null {
  if (entry.kind !== 'adjustment') return null;
  const before = paiseFromAmount(entry.balanceAfter) - paiseFromAmount(entry.amount);
  return translate('ledger.history.adjustedFrom', { balance: balanceText(formatAmount(before)) });
}

/**
 * A client's history, newest first (in the order recorded, so each balance follows from the
 * one below it), a page at a time: a table when wide, a list on a phone.
 */
export function LedgerHistory({ clientId }: { clientId: string }) {
  const t = useT();
  const entries = useEntries(clientId);
  if (entries.isPending) return <Loading />;
  if (!entries.data) {
    return (
      <LoadFailed
        what={t('ledger.history.loadWhat')}
        error={entries.error}
        onRetry={() => entries.refetch()}
      />
    );
  }
  const items = entries.data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return <p className="text-body-secondary">{t('ledger.history.empty')}</p>;
  }
  return (
    <>
      <Table
        size="sm"
        aria-label={t('ledger.history.title')}
        className="d-none d-md-table align-middle"
      >
        <thead>
          <tr>
            <th scope="col">{t('ledger.history.date')}</th>
            <th scope="col">{t('ledger.history.kind')}</th>
            <th scope="col" className="money-column">
              {t('ledger.history.amount')}
            </th>
            <th scope="col" className="money-column">
              {t('ledger.history.balanceAfter')}
            </th>
            <th scope="col">{t('ledger.history.note')}</th>
            <th scope="col">{t('ledger.history.recordedBy')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((entry) => (
            <tr key={entry.id}>
              <td className="text-nowrap">
                {formatDay(entry.on)}
                {entry.dueOn ? (
                  <span className="d-block small text-body-secondary">
                    {t('ledger.history.due', { day: formatDay(entry.dueOn) })}
                  </span>
                ) : null}
              </td>
              <td>
                {t(KIND_LABELS[entry.kind])}
                {entry.kind === 'adjustment' ? (
                  <span className="d-block small text-body-secondary">{adjustedFrom(entry)}</span>
                ) : null}
              </td>
              <td className="money-column">
                <EntryAmount amount={entry.amount} />
              </td>
              <td className="money-column">
                <Balance amount={entry.balanceAfter} />
              </td>
              <td className="text-break">{entry.note}</td>
              <td className="small">
                <EmailAddress email={entry.createdBy.email} />
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      <ul className="list-group d-md-none mb-3" aria-label={t('ledger.history.title')}>
        {items.map((entry) => (
          <li key={entry.id} className="list-group-item">
            <div className="d-flex justify-content-between gap-2">
              <span>
                {formatDay(entry.on)} · {t(KIND_LABELS[entry.kind])}
                {entry.dueOn ? (
                  <span className="small text-body-secondary">
                    {' · '}
                    {t('ledger.history.due', { day: formatDay(entry.dueOn) })}
                  </span>
                ) : null}
              </span>
              <EntryAmount amount={entry.amount} />
            </div>
            {entry.note ? <div className="text-break">{entry.note}</div> : null}
            <div className="small text-body-secondary">
              {t('ledger.history.balanceAfter')} <Balance amount={entry.balanceAfter} /> ·{' '}
              {entry.createdBy.email}
            </div>
          </li>
        ))}
      </ul>
      {entries.hasNextPage ? (
        <Button
          variant="outline-secondary"
          size="sm"
          disabled={entries.isFetchingNextPage}
          onClick={() => void entries.fetchNextPage()}
        >
          {entries.isFetchingNextPage ? t('ledger.loading') : t('ledger.history.showOlder')}
        </Button>
      ) : null}
      {entries.isError ? (
        <p role="alert" className="text-danger small mt-2">
          {t('ledger.history.loadMoreFailed', {
            what: entries.isFetchNextPageError ? 'older' : 'latest',
            why: errorText(entries.error),
          })}
        </p>
      ) : null}
    </>
  );
}
