import { QueryClient } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import type { Client, ClientList } from '../../../shared/client-schema.ts';
import { clientKeys, ledgerKeys } from '../../lib/query-keys.ts';
import { apiClient } from '../../test-utils.tsx';
import { applyClientEvent } from './clients-cache.ts';

function client(id: string, balance: string, version = 1): Client {
  return { ...apiClient(id, `F${id}`, 'L', balance), version };
}

function setup() {
  const queryClient = new QueryClient();
  const page = { limit: 50, offset: 0 };
  queryClient.setQueryData<ClientList>(clientKeys.list(page), {
    items: [client('a', '10.00'), client('b', '5.50')],
    total: 2,
    totalOwed: '15.50',
  });
  queryClient.setQueryData(clientKeys.detail('a'), client('a', '10.00'));
  return { queryClient, list: () => queryClient.getQueryData<ClientList>(clientKeys.list(page)) };
}

test('an update patches the list item, the total and the open details page', () => {
  const { queryClient, list } = setup();
  applyClientEvent(queryClient, { type: 'client.updated', client: client('a', '-2.25', 2) });
  expect(list()?.items[0]?.balance).toBe('-2.25');
  expect(list()?.totalOwed).toBe('3.25');
  expect(queryClient.getQueryData<Client>(clientKeys.detail('a'))?.version).toBe(2);
});

test('an older update never overwrites newer details', () => {
  const { queryClient } = setup();
  queryClient.setQueryData(clientKeys.detail('a'), client('a', '1.00', 5));
  applyClientEvent(queryClient, { type: 'client.updated', client: client('a', '9.00', 4) });
  expect(queryClient.getQueryData<Client>(clientKeys.detail('a'))?.balance).toBe('1.00');
});

test('a create adds to the count and the total', () => {
  const { queryClient, list } = setup();
  applyClientEvent(queryClient, { type: 'client.created', client: client('c', '100.00') });
  expect(list()?.total).toBe(3);
  expect(list()?.totalOwed).toBe('115.50');
});

test('a delete removes the item and marks an open details page as deleted', () => {
  const { queryClient, list } = setup();
  applyClientEvent(queryClient, { type: 'client.deleted', id: 'a' });
  expect(list()?.items.map((c) => c.id)).toEqual(['b']);
  expect(list()?.total).toBe(1);
  expect(list()?.totalOwed).toBe('5.50');
  expect(queryClient.getQueryData(clientKeys.detail('a'))).toBeNull();
});

test('an update older than the listed version, or a repeated create, changes nothing', () => {
  const { queryClient, list } = setup();
  applyClientEvent(queryClient, { type: 'client.updated', client: client('a', '99.00', 3) });
  expect(list()?.items[0]?.balance).toBe('99.00');
  expect(list()?.totalOwed).toBe('104.50');
  for (const version of [3, 2]) {
    applyClientEvent(queryClient, { type: 'client.updated', client: client('a', '1.00', version) });
  }
  expect(list()?.items[0]?.balance).toBe('99.00');
  expect(list()?.totalOwed).toBe('104.50');
  applyClientEvent(queryClient, { type: 'client.created', client: client('b', '5.50') });
  expect(list()?.total).toBe(2);
  expect(list()?.totalOwed).toBe('104.50');
});

test('in a filtered view, a client that stops matching leaves and one that matches counts', () => {
  const queryClient = new QueryClient();
  const owing = { limit: 50, offset: 0, balance: 'owing' as const };
  queryClient.setQueryData<ClientList>(clientKeys.list(owing), {
    items: [client('a', '10.00'), client('b', '5.50')],
    total: 2,
    totalOwed: '15.50',
  });
  const list = () => queryClient.getQueryData<ClientList>(clientKeys.list(owing));
  applyClientEvent(queryClient, { type: 'client.updated', client: client('a', '-1.00', 2) });
  expect(list()?.items.map((c) => c.id)).toEqual(['b']);
  expect(list()?.total).toBe(1);
  expect(list()?.totalOwed).toBe('5.50');
  applyClientEvent(queryClient, { type: 'client.created', client: client('c', '0.00') });
  expect(list()?.total).toBe(1);
  applyClientEvent(queryClient, { type: 'client.created', client: client('d', '2.00') });
  expect(list()?.total).toBe(2);
  expect(list()?.totalOwed).toBe('7.50');
});

test('a search counts a new client only if it matches, by text or by phone digits', () => {
  const queryClient = new QueryClient();
  const search = { limit: 50, offset: 0, q: '98765 43210' };
  queryClient.setQueryData<ClientList>(clientKeys.list(search), {
    items: [],
    total: 0,
    totalOwed: '0.00',
  });
  const list = () => queryClient.getQueryData<ClientList>(clientKeys.list(search));
  applyClientEvent(queryClient, { type: 'client.created', client: client('x', '1.00') });
  expect(list()?.total).toBe(0);
  applyClientEvent(queryClient, {
    type: 'client.created',
    client: { ...client('y', '1.00'), phone: '+919876543210' },
  });
  expect(list()?.total).toBe(1);
});

test("a deleted client's history is not asked for again; the rest of the ledger reloads", () => {
  const { queryClient } = setup();
  const page = { pages: [{ items: [], nextCursor: null }], pageParams: [null] };
  queryClient.setQueryData(ledgerKeys.entries('a'), page);
  queryClient.setQueryData(ledgerKeys.entries('b'), page);
  queryClient.setQueryData(ledgerKeys.totals, { clients: 2 });
  applyClientEvent(queryClient, { type: 'client.deleted', id: 'a' });
  expect(queryClient.getQueryState(ledgerKeys.entries('a'))?.isInvalidated).toBe(false);
  expect(queryClient.getQueryState(ledgerKeys.entries('b'))?.isInvalidated).toBe(true);
  expect(queryClient.getQueryState(ledgerKeys.totals)?.isInvalidated).toBe(true);
});

test('a new balance elsewhere reloads the ledger views (totals, chart, history)', () => {
  const { queryClient } = setup();
  queryClient.setQueryData(ledgerKeys.totals, { clients: 2 });
  queryClient.setQueryData(ledgerKeys.history('2026-01-01', '2026-03-31'), { points: [] });
  applyClientEvent(queryClient, { type: 'client.updated', client: client('a', '1.00', 2) });
  expect(queryClient.getQueryState(ledgerKeys.totals)?.isInvalidated).toBe(true);
  expect(
    queryClient.getQueryState(ledgerKeys.history('2026-01-01', '2026-03-31'))?.isInvalidated,
  ).toBe(true);
});

test('a client paid up leaves a list of overdue clients at once; one still overdue stays', () => {
  const queryClient = new QueryClient();
  const overdue = { limit: 50, offset: 0, overdue: '31-60' as const };
  const late = (id: string, version = 1): Client => ({
    ...client(id, '100.00', version),
    overdue: '100.00',
    overdueSince: '2026-01-20',
  });
  queryClient.setQueryData<ClientList>(clientKeys.list(overdue), {
    items: [late('a'), late('b')],
    total: 2,
    totalOwed: '200.00',
  });
  const list = () => queryClient.getQueryData<ClientList>(clientKeys.list(overdue));
  applyClientEvent(queryClient, { type: 'client.updated', client: client('a', '0.00', 2) });
  expect(list()?.items.map((c) => c.id)).toEqual(['b']);
  applyClientEvent(queryClient, {
    type: 'client.updated',
    client: { ...late('b', 2), balance: '150.00' },
  });
  expect(list()?.items.map((c) => c.balance)).toEqual(['150.00']);
});

test('a promise kept or replaced takes the client out of a list of broken promises', () => {
  const queryClient = new QueryClient();
  const broken = { limit: 50, offset: 0, promise: 'broken' as const };
  const promise = { id: 'p1', amount: '50.00', by: '2026-03-01', status: 'broken' as const };
  queryClient.setQueryData<ClientList>(clientKeys.list(broken), {
    items: [{ ...client('a', '100.00'), promise }],
    total: 1,
    totalOwed: '100.00',
  });
  const list = () => queryClient.getQueryData<ClientList>(clientKeys.list(broken));
  applyClientEvent(queryClient, {
    type: 'client.updated',
    client: { ...client('a', '100.00', 2), promise: { ...promise, status: 'open' } },
  });
  expect(list()?.total).toBe(0);
});

test('a change of a balance reloads the ageing with the totals', () => {
  const { queryClient } = setup();
  queryClient.setQueryData(ledgerKeys.ageing, { buckets: [] });
  applyClientEvent(queryClient, { type: 'client.updated', client: client('a', '1.00', 2) });
  expect(queryClient.getQueryState(ledgerKeys.ageing)?.isInvalidated).toBe(true);
});
