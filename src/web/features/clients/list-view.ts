import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  BALANCE_FILTERS,
  type BalanceFilter,
  CLIENT_SORT_FIELDS,
  type ClientSortField,
  NOT_REMINDED_DAYS,
  OVERDUE_FILTERS,
  type OverdueFilter,
  PROMISE_FILTERS,
  type PromiseFilter,
} from '../../../shared/client-schema.ts';
import { PendingEchoes } from '../../lib/pending-echoes.ts';
import type { ClientListParams } from '../../lib/query-keys.ts';

export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

/** What the operator is looking at; all of it lives in the URL. */
export interface ListView {
  q: string;
  sort: ClientSortField;
  dir: 'asc' | 'desc';
  balance: BalanceFilter | undefined;
  /** Only clients not reminded in the last NOT_REMINDED_DAYS days. */
  notReminded: boolean;
  /** How long past due the client's oldest overdue amount is ("any": overdue at all). */
  overdue: OverdueFilter | undefined;
  /** A promise to pay due today or earlier, or broken. */
  promise: PromiseFilter | undefined;
  /** 1-based. */
  page: number;
  size: PageSize;
}

export const DEFAULT_VIEW: ListView = {
  q: '',
  sort: 'lname',
  dir: 'asc',
  balance: undefined,
  notReminded: false,
  overdue: undefined,
  promise: undefined,
  page: 1,
  size: 50,
};

function oneOf<T extends string>(allowed: readonly T[], value: string | null): T | undefined {
  return allowed.find((item) => item === value);
}

/** Reads a view from URL parameters; anything unknown or malformed falls back to the default. */
export function viewFromParams(params: URLSearchParams): ListView {
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    sort: oneOf(CLIENT_SORT_FIELDS, params.get('sort')) ?? DEFAULT_VIEW.sort,
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    balance: oneOf(BALANCE_FILTERS, params.get('balance')),
    notReminded: params.get('notRemindedFor') === String(NOT_REMINDED_DAYS),
    overdue: oneOf(OVERDUE_FILTERS, params.get('overdue')),
    promise: oneOf(PROMISE_FILTERS, params.get('promise')),
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    size: PAGE_SIZES.find((allowed) => allowed === size) ?? DEFAULT_VIEW.size,
  };
}

/** The URL parameters of a view, leaving out what is the default (short, shareable links). */
export function paramsFromView(view: ListView): URLSearchParams {
  const params = new URLSearchParams();
  if (view.q) params.set('q', view.q);
  if (view.sort !== DEFAULT_VIEW.sort) params.set('sort', view.sort);
  if (view.dir !== DEFAULT_VIEW.dir) params.set('dir', view.dir);
  if (view.balance) params.set('balance', view.balance);
  if (view.notReminded) params.set('notRemindedFor', String(NOT_REMINDED_DAYS));
  if (view.overdue) params.set('overdue', view.overdue);
  if (view.promise) params.set('promise', view.promise);
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.size !== DEFAULT_VIEW.size) params.set('size', String(view.size));
  return params;
}

/** The API query for a view. */
export function listParams(view: ListView): ClientListParams {
  return {
    limit: view.size,
    offset: (view.page - 1) * view.size,
    sort: view.sort,
    dir: view.dir,
    ...(view.q ? { q: view.q } : {}),
    ...(view.balance ? { balance: view.balance } : {}),
    ...(view.notReminded ? { notRemindedFor: NOT_REMINDED_DAYS } : {}),
    ...(view.overdue ? { overdue: view.overdue } : {}),
    ...(view.promise ? { promise: view.promise } : {}),
  };
}

/**
 * The list's view, read from and written to the URL: reload, back and forward, and a shared
 * link all show the same view. Typing in the search replaces the history entry instead of
 * adding one per keystroke.
 */
export function useListView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => viewFromParams(params), [params]);
  // React Router hands a change the parameters of the last render: a second change made before
  // the first one's navigation has rendered (a page size chosen right after a filter) would
  // start from the old view and undo the first.
  const [asked] = useState(() => new PendingEchoes(params.toString()));
  // Idempotent for one set of parameters, so a render React throws away does no harm.
  asked.see(params.toString());
  const change = useCallback(
    (changes: Partial<ListView>, options: { replace?: boolean } = {}) => {
      const next = { ...viewFromParams(new URLSearchParams(asked.latest())), ...changes };
      // Anything but a page change starts again at the first page.
      if (!('page' in changes)) next.page = 1;
      const nextParams = paramsFromView(next);
      asked.ask(nextParams.toString());
      setParams(nextParams, { replace: options.replace ?? false, preventScrollReset: true });
    },
    [asked, setParams],
  );
  return { view, change };
}
