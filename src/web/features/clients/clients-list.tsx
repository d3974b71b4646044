import { type ReactNode, useEffect } from 'react';
import Button from 'react-bootstrap/Button';
import { useLocation } from 'react-router';
import {
  type BalanceFilter,
  type Client,
  NOT_REMINDED_DAYS,
  type OverdueFilter,
  type PromiseFilter,
} from '../../../shared/client-schema.ts';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { Money } from '../../components/money.tsx';
import { BulkActions } from './bulk-actions.tsx';
import { exportUrl, useClientList } from './clients-api.ts';
import { ClientCards, ClientsTable } from './clients-table.tsx';
import { rememberListPlace } from './list-place.ts';
import {
  DEFAULT_VIEW,
  type ListView,
  listParams,
  PAGE_SIZES,
  type PageSize,
  useListView,
} from './list-view.ts';
import { Pager, rangeText } from './pager.tsx';
import { useRowSelection } from './row-selection.ts';
import { SearchBox } from './search-box.tsx';

const FILTER_LABELS: Record<BalanceFilter | 'all', string> = {
  all: 'All clients',
  owing: 'Owing',
  credit: 'In credit',
  settled: 'Settled',
};

const OVERDUE_LABELS: Record<OverdueFilter | 'all', string> = {
  all: 'Overdue or not',
  any: 'Overdue',
  '1-30': 'Overdue 1–30 days',
  '31-60': 'Overdue 31–60 days',
  '61-90': 'Overdue 61–90 days',
  '90+': 'Overdue over 90 days',
};

const PROMISE_LABELS: Record<PromiseFilter | 'all', string> = {
  all: 'Promised or not',
  due: 'Promise due',
  broken: 'Promise broken',
};

function emptyText(view: ListView): string {
  if (view.q) return `No clients match "${view.q}"`;
  if (view.notReminded) return `Every client was reminded in the last ${NOT_REMINDED_DAYS} days`;
  if (view.overdue) return `No clients are ${OVERDUE_LABELS[view.overdue].toLowerCase()}`;
  if (view.promise === 'due') return 'No client has a promise to pay due';
  if (view.promise === 'broken') return 'No client has broken a promise to pay';
  if (view.balance) return `No clients are ${FILTER_LABELS[view.balance].toLowerCase()}`;
  return 'No users found';
}

/** One of the list's filters: a labelled choice, "all" leaving it out of the URL. */
function FilterSelect<Value extends string>({
  id,
  label,
  labels,
  value,
  onChange,
}: {
  id: string;
  label: string;
  labels: Record<Value | 'all', string>;
  value: Value | undefined;
  onChange(value: Value | undefined): void;
}) {
  return (
    <div>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="form-select"
        value={value ?? 'all'}
        onChange={(event) => {
          const chosen = event.target.value;
          onChange(chosen === 'all' ? undefined : (chosen as Value));
        }}
      >
        {Object.entries(labels).map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The client list: search, sort, filter and pages, all kept in the URL; the total owed of
 * what is shown and, while searching or filtering, of the whole panel; a page's own summary
 * (the dashboard's totals and trend) under its heading.
 */
export function ClientsList({
  summary,
  rowAction,
  selectedAction,
}: {
  summary?: ReactNode;
  /** Beside each row's Details (and on its phone card): another feature's action, from the page. */
  rowAction?: (client: Client) => ReactNode;
  /** Among what the picked rows can do: another feature's action, from the page. */
  selectedAction?: (selected: readonly Client[], clear: () => void) => ReactNode;
}) {
  const { view, change } = useListView();
  const location = useLocation();
  useEffect(() => {
    rememberListPlace(location.pathname + location.search);
  }, [location.pathname, location.search]);

  const params = listParams(view);
  const list = useClientList(params);
  const narrowed = Boolean(
    view.q || view.balance || view.notReminded || view.overdue || view.promise,
  );
  // Who owes and has not paid for longest (never first): one click, as the list's own view.
  const longestUnpaid =
    view.balance === 'owing' && view.sort === 'lastPaymentOn' && view.dir === 'asc';
  // The panel's own total while the view is narrowed: one cheap read of the running totals.
  const overall = useClientList({ limit: 1, offset: 0 }, { enabled: narrowed });

  const data = list.data;
  // Another page, search, sort or filter: the picks made in the last one do not carry over.
  const selection = useRowSelection(JSON.stringify(params), data?.items ?? []);
  const pages = data ? Math.max(1, Math.ceil(data.total / view.size)) : 1;
  // A page emptied by deletes elsewhere steps back to the last page that has clients.
  useEffect(() => {
    if (data && view.page > pages) change({ page: pages }, { replace: true });
  }, [data, view.page, pages, change]);

  return (
    <section aria-labelledby="clients-heading">
      <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2 mb-3">
        <h1 id="clients-heading" className="h2 mb-0" tabIndex={-1}>
          Clients
        </h1>
        <div className="text-md-end">
          <p className="h5 text-body-secondary mb-0" data-testid="total-owed">
            Total Owed :{' '}
            {data ? <Money amount={data.totalOwed} className="text-body fw-semibold" /> : '…'}
          </p>
          {narrowed && overall.data ? (
            <p className="small text-body-secondary mb-0" data-testid="overall-owed">
              of <Money amount={overall.data.totalOwed} /> owed across all{' '}
              {new Intl.NumberFormat('en-IN').format(overall.data.total)} clients
            </p>
          ) : null}
        </div>
      </div>

      {summary}

      <search className="d-flex flex-wrap gap-2 mb-3">
        <SearchBox value={view.q} onSearch={(q) => change({ q }, { replace: true })} />
        <FilterSelect
          id="client-filter"
          label="Show"
          labels={FILTER_LABELS}
          value={view.balance}
          onChange={(balance) => change({ balance })}
        />
        <FilterSelect
          id="client-overdue-filter"
          label="Overdue for"
          labels={OVERDUE_LABELS}
          value={view.overdue}
          onChange={(overdue) => change({ overdue })}
        />
        <FilterSelect
          id="client-promise-filter"
          label="Promise to pay"
          labels={PROMISE_LABELS}
          value={view.promise}
          onChange={(promise) => change({ promise })}
        />
        <Button
          variant="outline-secondary"
          active={longestUnpaid}
          aria-pressed={longestUnpaid}
          onClick={() =>
            change(
              longestUnpaid
                ? { balance: undefined, sort: DEFAULT_VIEW.sort, dir: DEFAULT_VIEW.dir }
                : { balance: 'owing', sort: 'lastPaymentOn', dir: 'asc' },
            )
          }
        >
          Owing, longest unpaid first
        </Button>
        <Button
          variant="outline-secondary"
          active={view.notReminded}
          aria-pressed={view.notReminded}
          onClick={() => change({ notReminded: !view.notReminded })}
        >
          Not reminded in {NOT_REMINDED_DAYS} days
        </Button>
        <a className="btn btn-outline-secondary" href={exportUrl(params)} download>
          Export CSV
        </a>
        <div>
          <label className="visually-hidden" htmlFor="client-page-size">
            Clients per page
          </label>
          <select
            id="client-page-size"
            className="form-select"
            value={view.size}
            onChange={(event) => change({ size: Number(event.target.value) as PageSize })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size} per page
              </option>
            ))}
          </select>
        </div>
      </search>

      {list.isPending ? <Loading /> : null}
      {list.isError ? (
        <LoadFailed
          what={data ? 'the latest clients' : 'the clients'}
          error={list.error}
          onRetry={() => list.refetch()}
        />
      ) : null}
      {data && data.total === 0 ? <p className="text-body-secondary">{emptyText(view)}</p> : null}
      {data && data.items.length > 0 ? (
        <>
          <BulkActions
            selected={selection.selected}
            exportHref={exportUrl(
              params,
              selection.selected.map((client) => client.id),
            )}
            onClear={selection.clear}
            extra={selectedAction?.(selection.selected, selection.clear)}
          />
          <ClientsTable
            items={data.items}
            rowAction={rowAction}
            selection={selection}
            sorting={{
              sort: view.sort,
              dir: view.dir,
              onSort: (sort) =>
                change({ sort, dir: view.sort === sort && view.dir === 'asc' ? 'desc' : 'asc' }),
            }}
          />
          <ClientCards items={data.items} rowAction={rowAction} />
          <nav
            className="d-flex flex-wrap align-items-center justify-content-between gap-2"
            aria-label="Client pages"
          >
            <span aria-live="polite">
              {rangeText(view.page, view.size, data.items.length, data.total)}
            </span>
            <Pager page={view.page} pages={pages} onPage={(page) => change({ page })} />
          </nav>
        </>
      ) : null}
    </section>
  );
}
