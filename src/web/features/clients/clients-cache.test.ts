import { QueryClient } from '@tanstack/react-query';
import { expect, test } from 'vitest';
import type { Client, ClientList } from '../../../shared/client-schema.ts';
import { clientKeys } from './clients-api.ts';
import { applyClientEvent } from './clients-cache.ts';

function client(id: string, balance: string, version = 1): Client {
  return {
    id,
    fname: `F${id}`,
    lname: 'L',
    email: 'e@example.com',
    phone: '9000000000',
    balance,
    version,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
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
