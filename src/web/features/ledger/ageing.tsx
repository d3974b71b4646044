import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import type { Ageing, AgeingBucket } from '../../../shared/dues-schema.ts';
import { formatAmount, paiseFromAmount } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import { Money } from '../../components/money.tsx';

export const AGEING_LABELS: Record<AgeingBucket, string> = {
  current: 'Not yet due',
  '1-30': '1–30 days',
  '31-60': '31–60 days',
  '61-90': '61–90 days',
  '90+': 'Over 90 days',
};

/** The client list filtered to a bucket: owing (not yet due), or overdue by that long. */
export function ageingListHref(bucket: AgeingBucket): string {
  const filter = new URLSearchParams(
    bucket === 'current' ? { balance: 'owing' } : { overdue: bucket },
  );
  return `${paths.clients}?${filter}`;
}

const count = new Intl.NumberFormat('en-IN');

/** What every bucket holds together: all that is owed. */
function owedInAll(ageing: Ageing): string {
  return formatAmount(ageing.buckets.reduce((sum, b) => sum + paiseFromAmount(b.amount), 0n));
}

/**
 * The ageing as a table: each bucket's amount and clients; on screen each bucket opens the
 * list filtered to it, on paper it is plain text.
 */
export function AgeingTable({ ageing, links }: { ageing: Ageing; links: boolean }) {
  return (
    <Table size="sm" className="align-middle mb-2" aria-label="Ageing">
      <thead>
        <tr>
          <th scope="col">Past due</th>
          <th scope="col" className="money-column">
            Amount
          </th>
          <th scope="col" className="money-column">
            Clients
          </th>
        </tr>
      </thead>
      <tbody>
        {ageing.buckets.map((bucket) => (
          <tr key={bucket.key}>
            <th scope="row" className="fw-normal">
              {links ? (
                <Link to={ageingListHref(bucket.key)}>{AGEING_LABELS[bucket.key]}</Link>
              ) : (
                AGEING_LABELS[bucket.key]
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
          <th scope="row">Overdue</th>
          <td className="money-column">
            <Money amount={ageing.totalOverdue} />
          </td>
          <td />
        </tr>
        <tr className="fw-semibold">
          <th scope="row">Owed in all</th>
          <td className="money-column">
            <Money amount={owedInAll(ageing)} />
          </td>
          <td />
        </tr>
      </tfoot>
    </Table>
  );
}
