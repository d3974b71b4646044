import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import type { Ageing, AgeingBucket } from '../../../shared/dues-schema.ts';
import { INTL_LOCALES } from '../../../shared/languages.ts';
import { formatAmount, paiseFromAmount } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import { Money } from '../../components/money.tsx';
import type { MessageId } from '../../i18n/catalogues.ts';
import { useT } from '../../i18n/translate.tsx';
import { useLanguage } from '../../i18n/use-language.ts';

const AGEING_LABELS: Record<AgeingBucket, MessageId> = {
  current: 'ledger.ageing.bucket.current',
  '1-30': 'ledger.ageing.bucket.1-30',
  '31-60': 'ledger.ageing.bucket.31-60',
  '61-90': 'ledger.ageing.bucket.61-90',
  '90+': 'ledger.ageing.bucket.90-plus',
};

/** The client list filtered to a bucket: owing (not yet due), or overdue by that long. */
export function ageingListHref(bucket: AgeingBucket): string {
  const filter = new URLSearchParams(
    bucket === 'current' ? { balance: 'owing' } : { overdue: bucket },
  );
  return `${paths.clients}?${filter}`;
}

/** What every bucket holds together: all that is owed. */
function owedInAll(ageing: Ageing): string {
  return formatAmount(ageing.buckets.reduce((sum, b) => sum + paiseFromAmount(b.amount), 0n));
}

/**
 * The ageing as a table: each bucket's amount and clients; on screen each bucket opens the
 * list filtered to it, on paper it is plain text.
 */
export function AgeingTable({ ageing, links }: { ageing: Ageing; links: boolean }) {
  const t = useT();
  const count = new Intl.NumberFormat(INTL_LOCALES[useLanguage()]);
  const table = (
    // Each line one row high whatever the amounts (the dashboard keeps the summary's height
    // while it loads); amounts too wide for a phone scroll inside the card, not past it.
    <Table
      size="sm"
      responsive
      className="ageing-table align-middle mb-2"
      aria-label={t('ledger.ageing.title')}
    >
      <thead>
        <tr>
          <th scope="col" className="text-nowrap">
            {t('ledger.ageing.pastDue')}
          </th>
          <th scope="col" className="money-column">
            {t('ledger.ageing.amount')}
          </th>
          <th scope="col" className="money-column">
            {t('ledger.ageing.clients')}
          </th>
        </tr>
      </thead>
      <tbody>
        {ageing.buckets.map((bucket) => (
          <tr key={bucket.key}>
            <th scope="row" className="fw-normal text-nowrap">
              {links ? (
                <Link to={ageingListHref(bucket.key)}>{t(AGEING_LABELS[bucket.key])}</Link>
              ) : (
                t(AGEING_LABELS[bucket.key])
              )}
            </th>
            <td className={`money-column ${bucket.key === 'current' ? '' : 'balance-owing'}`}>
              <Money amount={bucket.amount} />
            </td>
            <td className="money-column">{count.format(bucket.clients)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="fw-semibold">
          <th scope="row" className="text-nowrap">
            {t('ledger.ageing.overdue')}
          </th>
          <td className="money-column">
            <Money amount={ageing.totalOverdue} />
          </td>
          <td />
        </tr>
        <tr className="fw-semibold">
          <th scope="row" className="text-nowrap">
            {t('ledger.ageing.owedInAll')}
          </th>
          <td className="money-column">
            <Money amount={owedInAll(ageing)} />
          </td>
          <td />
        </tr>
      </tfoot>
    </Table>
  );
  if (!links) return table;
  return (
    <>
      {table}
      {/* The counts are of every client with an amount in a bucket; the list files each client
          once, by their oldest overdue amount (the contract's two meanings, said on the page). */}
      <p className="small text-body-secondary mb-0">{t('ledger.ageing.linksNote')}</p>
    </>
  );
}
