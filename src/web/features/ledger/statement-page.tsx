import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import type * as z from 'zod/mini';
import type { Client } from '../../../shared/client-schema.ts';
import { addDays, type Statement, statementQuerySchema } from '../../../shared/ledger-schema.ts';
import { formatAmount, formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import { FormField } from '../../components/form-field.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { Balance, balanceText, Money } from '../../components/money.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useT } from '../../i18n/translate.tsx';
import { collectionSettingsQuery } from '../../lib/collection-settings.ts';
import { formatDay } from '../../lib/dates.ts';
import { fieldMessageText } from '../../lib/form-errors.ts';
import { usePanelToday } from '../../lib/panel-today.ts';
import { useStatement } from './ledger-api.ts';
import { KIND_LABELS } from './ledger-history.tsx';

type Range = z.output<typeof statementQuerySchema>;

/** The last twelve months, today included, unless the URL asks for another range. */
function defaultRange(to: string): Range {
  return { from: addDays(to, -364), to };
}

function RangeForm({ range, onRange }: { range: Range; onRange(range: Range): void }) {
  const t = useT();
  const form = useForm<z.input<typeof statementQuerySchema>, unknown, Range>({
    resolver: zodResolver(statementQuerySchema),
    values: range,
  });
  const { errors } = form.formState;
  return (
    <Form
      noValidate
      onSubmit={form.handleSubmit(onRange)}
      aria-label={t('ledger.statement.period')}
      className="d-flex flex-wrap align-items-start gap-2"
    >
      <FormField
        id="statement-from"
        label={t('ledger.statement.from')}
        type="date"
        registration={form.register('from')}
        error={errors.from?.message}
      />
      <FormField
        id="statement-to"
        label={t('ledger.statement.to')}
        type="date"
        registration={form.register('to')}
        error={errors.to?.message}
      />
      <Button type="submit" variant="secondary" className="mt-md-4 align-self-md-center">
        {t('ledger.statement.show')}
      </Button>
    </Form>
  );
}

/** An entry in the column of the way it moved the balance: charges add, payments take off. */
function Column({ amount, adds }: { amount: string; adds: boolean }) {
  const paise = paiseFromAmount(amount);
  if (adds ? paise <= 0n : paise >= 0n) return null;
  return <>{formatInr(adds ? paise : -paise)}</>;
}

/**
 * The balance after each line of a statement, in the statement's order (by date): the
 * opening balance plus every amount so far. An entry's own balanceAfter is the balance when
 * it was recorded, which for an entry dated in the past is not the balance on its date.
 */
export function runningBalances(statement: Pick<Statement, 'opening' | 'entries'>): string[] {
  let balance = paiseFromAmount(statement.opening);
  return statement.entries.map((entry) => {
    balance += paiseFromAmount(entry.amount);
    return formatAmount(balance);
  });
}

/** Who the statement is from: the business's name, when the book has one. */
function BusinessName() {
  const name = useQuery(collectionSettingsQuery).data?.businessName;
  return name ? <p className="mb-1 fs-5 fw-semibold">{name}</p> : null;
}

/** How the client can pay the business (its UPI ID, its other ways), when it says. */
function WaysToPay() {
  const t = useT();
  const settings = useQuery(collectionSettingsQuery).data;
  if (!settings || (!settings.upiId && !settings.otherWaysToPay)) return null;
  return (
    <footer className="mt-3">
      {settings.upiId ? (
        <p className="mb-1">{t('ledger.statement.payByUpi', { upi: settings.upiId })}</p>
      ) : null}
      {settings.otherWaysToPay ? (
        <p className="mb-0 text-break statement-ways">
          {t('ledger.statement.otherWays', { ways: settings.otherWaysToPay })}
        </p>
      ) : null}
    </footer>
  );
}

function StatementSheet({ statement }: { statement: Statement }) {
  const t = useT();
  const { client } = statement;
  const balances = runningBalances(statement);
  return (
    <article aria-labelledby="statement-heading" className="statement">
      <header className="mb-3">
        <BusinessName />
        <h1 id="statement-heading" className="h3" tabIndex={-1}>
          {t('ledger.statement.title')}
        </h1>
        <p className="mb-1 fs-5 fw-semibold">
          {client.fname} {client.lname}
        </p>
        <p className="mb-1">
          {client.email} · {client.phoneDisplay}
        </p>
        <p className="mb-0 text-body-secondary">
          {t('ledger.statement.fromTo', {
            from: formatDay(statement.from),
            to: formatDay(statement.to),
          })}
        </p>
      </header>
      <Table
        bordered
        size="sm"
        className="statement-summary w-auto"
        aria-label={t('ledger.statement.summary')}
      >
        <tbody>
          <tr>
            <th scope="row">{t('ledger.statement.broughtForward')}</th>
            <td className="money-column">
              <Balance amount={statement.opening} />
            </td>
          </tr>
          <tr>
            <th scope="row">{t('ledger.statement.charges')}</th>
            <td className="money-column">
              <Money amount={statement.charges} />
            </td>
          </tr>
          <tr>
            <th scope="row">{t('ledger.statement.payments')}</th>
            <td className="money-column">
              <Money amount={statement.payments} />
            </td>
          </tr>
          <tr>
            <th scope="row">{t('ledger.statement.closing')}</th>
            <td className="money-column fw-semibold">
              <Balance amount={statement.closing} />
            </td>
          </tr>
        </tbody>
      </Table>
      {statement.entries.length === 0 ? (
        <p>{t('ledger.statement.empty')}</p>
      ) : (
        // Five columns of Hindi dates and amounts do not fit a phone: there each line is a
        // block whose amounts are named by their column (table-stacked), as printed it is a table.
        <Table
          size="sm"
          className="align-middle table-stacked"
          aria-label={t('ledger.statement.entries')}
        >
          <thead>
            <tr>
              <th scope="col">{t('ledger.statement.date')}</th>
              <th scope="col">{t('ledger.statement.description')}</th>
              <th scope="col" className="money-column">
                {t('ledger.statement.charges')}
              </th>
              <th scope="col" className="money-column">
                {t('ledger.statement.payments')}
              </th>
              <th scope="col" className="money-column">
                {t('ledger.statement.balance')}
              </th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td className="text-nowrap">{formatDay(statement.from)}</td>
              {/* Not "Opening balance": that is the entry a client added with a balance has. */}
              <td>{t('ledger.statement.broughtForward')}</td>
              <td />
              <td />
              <td className="money-column" data-label={t('ledger.statement.balance')}>
                <Balance amount={statement.opening} />
              </td>
            </tr>
            {statement.entries.map((entry, index) => {
              const adds = paiseFromAmount(entry.amount) > 0n;
              return (
                <tr key={entry.id}>
                  <td className="text-nowrap">{formatDay(entry.on)}</td>
                  <td className="text-break">
                    {t(KIND_LABELS[entry.kind])}
                    {entry.note ? ` · ${entry.note}` : ''}
                  </td>
                  <td
                    className="money-column"
                    data-label={adds ? t('ledger.statement.charges') : undefined}
                  >
                    <Column amount={entry.amount} adds />
                  </td>
                  <td
                    className="money-column"
                    data-label={adds ? undefined : t('ledger.statement.payments')}
                  >
                    <Column amount={entry.amount} adds={false} />
                  </td>
                  <td className="money-column" data-label={t('ledger.statement.balance')}>
                    <Balance amount={balances[index] ?? entry.balanceAfter} />
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr className="fw-semibold">
              <td className="text-nowrap">{formatDay(statement.to)}</td>
              <td>{t('ledger.statement.closing')}</td>
              <td className="money-column" data-label={t('ledger.statement.charges')}>
                <Money amount={statement.charges} />
              </td>
              <td className="money-column" data-label={t('ledger.statement.payments')}>
                <Money amount={statement.payments} />
              </td>
              <td className="money-column" data-label={t('ledger.statement.balance')}>
                <Balance amount={statement.closing} />
              </td>
            </tr>
          </tfoot>
        </Table>
      )}
      <WaysToPay />
    </article>
  );
}

/**
 * A statement that ends before the client's latest entries (one dated tomorrow, which the entry
 * form allows; or a period chosen in the past) closes on another figure than the balance: said,
 * so that a printed "closing" is never taken for what the client owes now.
 */
function LaterEntries({
  client,
  from,
  to,
  onShow,
}: {
  client: Client;
  from: string;
  to: string;
  onShow: (range: { from: string; to: string }) => void;
}) {
  const t = useT();
  // The latest day an entry can be dated: tomorrow, as the entry form allows.
  const latest = addDays(usePanelToday(), 1);
  return (
    <Alert variant="info" className="d-print-none">
      {t('ledger.statement.laterEntries', {
        day: formatDay(to),
        balance: balanceText(client.balance),
      })}{' '}
      {to < latest ? (
        <Button
          variant="link"
          className="p-0 align-baseline"
          onClick={() => onShow({ from, to: latest })}
        >
          {t('ledger.statement.showLater')}
        </Button>
      ) : null}
    </Alert>
  );
}

export function ClientStatement({ client }: { client: Client }) {
  const t = useT();
  const name = `${client.fname} ${client.lname}`;
  usePageTitle(t('ledger.statement.pageTitle', { name }));
  const [params, setParams] = useSearchParams();
  const asked = statementQuerySchema.safeParse({
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
  });
  const nothingAsked = !params.has('from') && !params.has('to');
  const today = usePanelToday();
  const range = asked.success ? asked.data : defaultRange(today);
  const statement = useStatement(client.id, range.from, range.to);

  return (
    <>
      <div className="d-print-none">
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
          <Link to={paths.clientDetails(client.id)} className="btn btn-link ps-0">
            {t('ledger.statement.back', { name })}
          </Link>
          <Button variant="primary" onClick={() => window.print()} disabled={!statement.data}>
            {t('ledger.print')}
          </Button>
        </div>
        <RangeForm range={range} onRange={(next) => setParams(next, { replace: true })} />
        {!asked.success && !nothingAsked ? (
          <Alert variant="warning">
            {t('ledger.statement.badPeriod', {
              why: fieldMessageText(asked.error.issues[0]?.message) ?? '',
            })}
          </Alert>
        ) : null}
      </div>
      {statement.data && statement.data.closing !== client.balance ? (
        <LaterEntries
          client={client}
          from={statement.data.from}
          to={statement.data.to}
          onShow={(next) => setParams(next, { replace: true })}
        />
      ) : null}
      {statement.isPending ? <Loading /> : null}
      {statement.isError ? (
        <LoadFailed
          what={t('ledger.statement.loadWhat')}
          error={statement.error}
          onRetry={() => statement.refetch()}
        />
      ) : null}
      {statement.data ? <StatementSheet statement={statement.data} /> : null}
    </>
  );
}
