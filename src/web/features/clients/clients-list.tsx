import { type ReactNode, useEffect } from 'react';
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
import type { MessageId } from '../../i18n/catalogues.ts';
import { T, useT } from '../../i18n/translate.tsx';
import { useMay } from '../../lib/books.ts';
import { formatCount } from '../../lib/counts.ts';
import { BulkActions } from './bulk-actions.tsx';
import { exportUrl, useClientList } from './clients-api.ts';
import { ClientCards, ClientsTable, COLUMNS } from './clients-table.tsx';
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

const FILTER_LABELS: Record<BalanceFilter | 'all', MessageId> = {
  all: 'clients.filter.balance.all',
  owing: 'clients.filter.balance.owing',
  credit: 'clients.filter.balance.credit',
  settled: 'clients.filter.balance.settled',
};

const OVERDUE_LABELS: Record<OverdueFilter | 'all', MessageId> = {
  all: 'clients.filter.overdue.all',
  any: 'clients.filter.overdue.any',
  '1-30': 'clients.filter.overdue.1-30',
  '31-60': 'clients.filter.overdue.31-60',
  '61-90': 'clients.filter.overdue.61-90',
  '90+': 'clients.filter.overdue.90plus',
};

const PROMISE_LABELS: Record<PromiseFilter | 'all', MessageId> = {
  all: 'clients.filter.promise.all',
  due: 'clients.filter.promise.due',
  broken: 'clients.filter.promise.broken',
};

// What an empty list says under each filter: a sentence of its own in each language, not the
// filter's name put into one.
const EMPTY_BALANCE: Record<BalanceFilter, MessageId> = {
  owing: 'clients.empty.balance.owing',
  credit: 'clients.empty.balance.credit',
  settled: 'clients.empty.balance.settled',
};

const EMPTY_OVERDUE: Record<OverdueFilter, MessageId> = {
  any: 'clients.empty.overdue.any',
  '1-30': 'clients.empty.overdue.1-30',
  '31-60': 'clients.empty.overdue.31-60',
  '61-90': 'clients.empty.overdue.61-90',
  '90+': 'clients.empty.overdue.90plus',
};

const EMPTY_PROMISE: Record<PromiseFilter, MessageId> = {
  due: 'clients.empty.promise.due',
  broken: 'clients.empty.promise.broken',
};

function emptyText(t: ReturnType<typeof useT>, view: ListView): string {
  const narrowedBy = [view.q, view.notReminded, view.overdue, view.promise, view.balance];
  // With two or more, no one of them is why the list is empty.
  if (narrowedBy.filter(Boolean).length > 1) return t('clients.empty.filters');
  if (view.q) return t('clients.empty.search', { q: view.q });
  if (view.notReminded) return t('clients.empty.notReminded', { days: NOT_REMINDED_DAYS });
  if (view.overdue) return t(EMPTY_OVERDUE[view.overdue]);
  if (view.promise) return t(EMPTY_PROMISE[view.promise]);
  if (view.balance) return t(EMPTY_BALANCE[view.balance]);
  return t('clients.empty');
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
  labels: Record<Value | 'all', MessageId>;
  value: Value | undefined;
  onChange(value: Value | undefined): void;
}) {
  const t = useT();
  return (
    <ChoiceSelect<Value | 'all'>
      id={id}
      label={label}
      value={value ?? 'all'}
      choices={(Object.entries(labels) as [Value | 'all', MessageId][]).map(
        ([option, text]) => [option, t(text)] as const,
      )}
      onChange={(chosen) => onChange(chosen === 'all' ? undefined : (chosen as Value))}
    />
  );
}

/** A select of a few choices, each a value and its words; the label is for screen readers. */
function ChoiceSelect<Value extends string>({
  id,
  label,
  value,
  choices,
  onChange,
}: {
  id: string;
  label: string;
  value: Value;
  choices: readonly (readonly [Value, string])[];
  onChange(value: Value): void;
}) {
  return (
    <div>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="form-select"
        value={value}
        onChange={(event) => onChange(event.target.value as Value)}
      >
        {choices.map(([choice, words]) => (
          <option key={choice} value={choice}>
            {words}
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
  const t = useT();
  const { view, change } = useListView();
  const location = useLocation();
  useEffect(() => {
    rememberListPlace(location.pathname + location.search);
  }, [location.pathname, location.search]);

  const params = listParams(view);
  const mayExport = useMay('clients.export');
  const mayDelete = useMay('clients.delete');
  const mayRemind = useMay('reminders.send');
  // Rows are picked to do something with them together: nothing to do, nothing to pick.
  const selectable = mayExport || mayDelete || (mayRemind && selectedAction !== undefined);
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
          {t('clients.title')}
        </h1>
        <div className="text-md-end">
          <p className="h5 text-body-secondary mb-0" data-testid="total-owed">
            {t('clients.list.totalOwed')}{' '}
            {data ? <Money amount={data.totalOwed} className="text-body fw-semibold" /> : '…'}
          </p>
          {narrowed && overall.data ? (
            <p className="small text-body-secondary mb-0" data-testid="overall-owed">
              <T
                id="clients.list.overall"
                // The count as `total` too: formatted here, it keeps the Indian grouping in
                // English ("1,23,456"), which `#` would write the American way.
                values={{ count: overall.data.total, total: formatCount(overall.data.total) }}
                components={{ 0: <Money amount={overall.data.totalOwed} /> }}
              />
            </p>
          ) : null}
        </div>
      </div>

      {summary}

      <search className="d-flex flex-wrap gap-2 mb-3">
        <SearchBox value={view.q} onSearch={(q) => change({ q }, { replace: true })} />
        <FilterSelect
          id="client-filter"
          label={t('clients.filter.balance')}
          labels={FILTER_LABELS}
          value={view.balance}
          onChange={(balance) => change({ balance })}
        />
        <FilterSelect
          id="client-overdue-filter"
          label={t('clients.filter.overdue')}
          labels={OVERDUE_LABELS}
          value={view.overdue}
          onChange={(overdue) => change({ overdue })}
        />
        <FilterSelect
          id="client-promise-filter"
          label={t('clients.filter.promise')}
          labels={PROMISE_LABELS}
          value={view.promise}
          onChange={(promise) => change({ promise })}
        />
        <button
          type="button"
          className={
            longestUnpaid ? 'btn btn-outline-secondary active' : 'btn btn-outline-secondary'
          }
          aria-pressed={longestUnpaid}
          onClick={() =>
            change(
              longestUnpaid
                ? { balance: undefined, sort: DEFAULT_VIEW.sort, dir: DEFAULT_VIEW.dir }
                : { balance: 'owing', sort: 'lastPaymentOn', dir: 'asc' },
            )
          }
        >
          {t('clients.list.longestUnpaid')}
        </button>
        <button
          type="button"
          className={
            view.notReminded ? 'btn btn-outline-secondary active' : 'btn btn-outline-secondary'
          }
          aria-pressed={view.notReminded}
          // Someone to remind owes something: a settled client not reminded lately is no work.
          onClick={() =>
            change(
              view.notReminded ? { notReminded: false } : { notReminded: true, balance: 'owing' },
            )
          }
        >
          {t('clients.list.notReminded', { days: NOT_REMINDED_DAYS })}
        </button>
        {mayExport ? (
          <a className="btn btn-outline-secondary" href={exportUrl(params)} download>
            {t('clients.list.export')}
          </a>
        ) : null}
        {/* A phone has no table headers to click: the sort is chosen here instead, one select
            above the other (side by side, the Hindi order's words were cut short). */}
        <div className="d-grid gap-2 d-md-none w-100">
          <ChoiceSelect
            id="client-sort"
            label={t('clients.sort.by')}
            value={view.sort}
            choices={COLUMNS.map((column) => [column.field, t(column.label)] as const)}
            onChange={(sort) => change({ sort })}
          />
          <ChoiceSelect
            id="client-sort-order"
            label={t('clients.sort.order')}
            value={view.dir}
            choices={[
              ['asc', t('clients.sort.asc')],
              ['desc', t('clients.sort.desc')],
            ]}
            onChange={(dir) => change({ dir })}
          />
        </div>
        <ChoiceSelect
          id="client-page-size"
          label={t('clients.list.perPage')}
          value={String(view.size)}
          choices={PAGE_SIZES.map(
            (size) => [String(size), t('clients.list.perPageOption', { size })] as const,
          )}
          onChange={(size) => change({ size: Number(size) as PageSize })}
        />
      </search>

      {list.isPending ? <Loading /> : null}
      {list.isError ? (
        <LoadFailed
          what={t(data ? 'clients.list.loadLatest' : 'clients.list.load')}
          error={list.error}
          onRetry={() => list.refetch()}
        />
      ) : null}
      {data && data.total === 0 ? (
        <p className="text-body-secondary">{emptyText(t, view)}</p>
      ) : null}
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
            selection={selectable ? selection : undefined}
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
            aria-label={t('clients.list.pages')}
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
