import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router';
import { addDays } from '../../../shared/ledger-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { LoadFailed } from '../../components/loading.tsx';
import { balanceClass, Money } from '../../components/money.tsx';
import { T, useT } from '../../i18n/translate.tsx';
import { totalsQuery, usePanelToday } from '../../lib/panel-today.ts';
import { AgeingPanel } from './ageing-panel.tsx';
import { totalsHistoryQuery } from './ledger-api.ts';
import { TotalOwedChart } from './total-owed-chart.tsx';

export const TREND_DAYS = 90;

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
        <p className={`fs-4 fw-semibold mb-0 text-nowrap ${className}`}>
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
  const t = useT();
  const totals = useQuery(totalsQuery);
  // Waits for the panel's day: the chart ends on the day entries are booked, not the browser's.
  const to = usePanelToday();
  const from = addDays(to, -(TREND_DAYS - 1));
  const history = useQuery({ ...totalsHistoryQuery(from, to), enabled: totals.data !== undefined });

  return (
    <section aria-label={t('ledger.summary.title')} className="ledger-summary">
      {totals.isError && !totals.data ? (
        <LoadFailed
          what={t('ledger.summary.loadWhat')}
          error={totals.error}
          onRetry={() => totals.refetch()}
        />
      ) : null}
      <Row className="g-3">
        <Col lg={4}>
          <Row className="g-3 h-100">
            <Col xs={12} sm={6} lg={12}>
              <Figure
                title={t('ledger.summary.owing')}
                amount={totals.data?.owing}
                detail={
                  totals.data &&
                  t('ledger.summary.owingClients', { count: totals.data.owingClients })
                }
                // Nothing owed is not shown in the colour of a debt: ₹0.00 is good news.
                className={balanceClass(totals.data?.owing ?? '0')}
              />
            </Col>
            <Col xs={12} sm={6} lg={12}>
              <Figure
                title={t('ledger.summary.credit')}
                amount={totals.data?.credit}
                detail={
                  totals.data &&
                  t('ledger.summary.creditClients', { count: totals.data.creditClients })
                }
                className="balance-clear"
              />
            </Col>
          </Row>
        </Col>
        <Col lg={8}>
          <Card className="h-100">
            <Card.Body className="py-2">
              <h2 className="h6 text-body-secondary mb-1">
                {t('ledger.summary.trend', { days: TREND_DAYS })}
              </h2>
              {history.isError && !history.data ? (
                <LoadFailed
                  what={t('ledger.summary.trendLoadWhat')}
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
            <Col xs={12} sm={6} lg={12}>
              <Figure
                title={t('ledger.summary.overdue')}
                amount={totals.data?.overdue}
                detail={
                  totals.data ? (
                    <Link to={`${paths.clients}?overdue=any&sort=overdue&dir=desc`}>
                      {t('ledger.summary.overdueClients')}
                    </Link>
                  ) : undefined
                }
                className={balanceClass(totals.data?.overdue ?? '0')}
              />
            </Col>
            <Col xs={12} sm={6} lg={12}>
              <Figure
                title={t('ledger.summary.collected')}
                amount={totals.data?.collectedThisMonth}
                detail={
                  totals.data ? (
                    <T
                      id="ledger.summary.lastMonth"
                      components={{ 0: <Money amount={totals.data.collectedLastMonth} /> }}
                    />
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
          <T
            id="ledger.summary.pendingClaims"
            values={{ count: totals.data.pendingClaims }}
            components={{ 0: <span className="badge text-bg-warning" /> }}
          />
        </p>
      ) : null}
    </section>
  );
}
