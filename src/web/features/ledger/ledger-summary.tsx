import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router';
import { addDays } from '../../../shared/ledger-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { LoadFailed } from '../../components/loading.tsx';
import { Money } from '../../components/money.tsx';
import { totalsQuery, usePanelToday } from '../../lib/panel-today.ts';
import { AgeingPanel } from './ageing-panel.tsx';
import { totalsHistoryQuery } from './ledger-api.ts';
import { TotalOwedChart } from './total-owed-chart.tsx';

export const TREND_DAYS = 90;

const count = new Intl.NumberFormat('en-IN');

function clientsText(n: number): string {
  return `${count.format(n)} ${n === 1 ? 'client' : 'clients'}`;
}

function Figure({
  title,
  amount,
  detail,
  className,
}: {
  title: string;
  amount: string | undefined;
  detail: ReactNode;
  className: string;
}) {
  const titleId = useId();
  return (
    <Card as="section" aria-labelledby={titleId} className="h-100">
      <Card.Body className="py-2">
        <h2 id={titleId} className="h6 text-body-secondary mb-1">
          {title}
        </h2>
        <p className={`fs-4 fw-semibold mb-0 ${className}`}>
          {amount === undefined ? '…' : <Money amount={amount} />}
        </p>
        <p className="small text-body-secondary mb-0">{detail ?? '\u00a0'}</p>
      </Card.Body>
    </Card>
  );
}

/**
 * Beside the net "Total Owed": what clients owe the operator and what the operator holds in
 * credit, apart, and the total owed over the last 90 days.
 */
export function LedgerSummary() {
  const totals = useQuery(totalsQuery);
  // Waits for the panel's day: the chart ends on the day entries are booked, not the browser's.
  const to = usePanelToday();
  const from = addDays(to, -(TREND_DAYS - 1));
  const history = useQuery({ ...totalsHistoryQuery(from, to), enabled: totals.data !== undefined });

  return (
    <section aria-label="Totals" className="ledger-summary">
      {totals.isError && !totals.data ? (
        <LoadFailed what="the totals" error={totals.error} onRetry={() => totals.refetch()} />
      ) : null}
      <Row className="g-3">
        <Col lg={4}>
          <Row className="g-3 h-100">
            <Col xs={6} lg={12}>
              <Figure
                title="Owed to you"
                amount={totals.data?.owing}
                detail={totals.data && `by ${clientsText(totals.data.owingClients)}`}
                className="balance-owing"
              />
            </Col>
            <Col xs={6} lg={12}>
              <Figure
                title="Held in credit"
                amount={totals.data?.credit}
                detail={totals.data && `for ${clientsText(totals.data.creditClients)}`}
                className="balance-clear"
              />
            </Col>
          </Row>
        </Col>
        <Col lg={8}>
          <Card className="h-100">
            <Card.Body className="py-2">
              <h2 className="h6 text-body-secondary mb-1">Total owed, last {TREND_DAYS} days</h2>
              {history.isError && !history.data ? (
                <LoadFailed
                  what="the history of the total"
                  error={history.error}
                  onRetry={() => history.refetch()}
                />
              ) : null}
              {history.data ? <TotalOwedChart points={history.data.points} /> : null}
            </Card.Body>
          </Card>
        </Col>
      </Row>
      <Row className="g-3 mt-0">
        <Col lg={4}>
          <Row className="g-3 h-100">
            <Col xs={6} lg={12}>
              <Figure
                title="Overdue"
                amount={totals.data?.overdue}
                detail={
                  totals.data ? (
                    <Link to={`${paths.clients}?overdue=any&sort=overdue&dir=desc`}>
                      Overdue clients
                    </Link>
                  ) : undefined
                }
                className="balance-owing"
              />
            </Col>
            <Col xs={6} lg={12}>
              <Figure
                title="Collected this month"
                amount={totals.data?.collectedThisMonth}
                detail={
                  totals.data ? (
                    <>
                      <Money amount={totals.data.collectedLastMonth} /> last month
                    </>
                  ) : undefined
                }
                className="balance-clear"
              />
            </Col>
          </Row>
        </Col>
        <Col lg={8}>
          <AgeingPanel />
        </Col>
      </Row>
      {totals.data && totals.data.pendingClaims > 0 ? (
        <p className="mt-2 mb-0" data-testid="pending-claims">
          <span className="badge text-bg-warning">{count.format(totals.data.pendingClaims)}</span>{' '}
          {totals.data.pendingClaims === 1 ? 'payment' : 'payments'} reported by clients, to check
        </p>
      ) : null}
    </section>
  );
}
