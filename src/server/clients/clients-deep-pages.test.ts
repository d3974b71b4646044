// Pages from DEFERRED_JOIN_OFFSET on are read another way (keys off the sort index, then the
// rows; decision 0034): they must continue exactly where the pages before them leave off, in
// every sort, direction and filter, ties included.
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  BALANCE_FILTERS,
  CLIENT_SORT_FIELDS,
  type Client,
  type ClientList,
} from '../../shared/client-schema.ts';
import { importCsv, setPanelSettings, startTestApp, type TestApp } from '../test-support.ts';
import { DEFERRED_JOIN_OFFSET, WORKER_OFFSET } from './clients-read.ts';

let t: TestApp;
const CLIENTS = DEFERRED_JOIN_OFFSET + 150;

beforeAll(async () => {
  t = await startTestApp();
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  // Few names and balances, one import (one creation time): ties everywhere but in e-mails.
  const lines = ['First Name,Last Name,Email,Phone,Balance'];
  for (let i = 0; i < CLIENTS; i += 1) {
    lines.push(
      `${['Asha', 'Ravi', 'Meera'][i % 3]},${['Kumar', 'Iyer', 'Das'][(i % 5) % 3]},c${i}@example.com,${7_000_000_000 + i},${(i % 7) - 3}.50`,
    );
  }
  const imported = await importCsv(t.app, t.admin.cookie, lines);
  expect(imported.statusCode, imported.body).toBe(201);
  // A few payments, so that the last-payment order has dates as well as clients never paid.
  const first = await list('limit=20');
  for (const client of first.items.slice(0, 20)) {
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/clients/${client.id}/entries`,
      headers: { cookie: t.admin.cookie },
      payload: { kind: 'payment', amount: '1.00' },
    });
    expect(paid.statusCode, paid.body).toBe(201);
  }
}, 60_000);
afterAll(async () => {
  await t.close();
});

async function list(query: string): Promise<ClientList> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/clients?${query}`,
    headers: { cookie: t.admin.cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const ids = (clients: Client[]) => clients.map((client) => client.id);

const views = CLIENT_SORT_FIELDS.flatMap((sort) =>
  (['asc', 'desc'] as const).flatMap((dir) =>
    [undefined, ...BALANCE_FILTERS].map((balance) => ({ sort, dir, balance })),
  ),
);

test.each(views)(
  'a deep page continues the shallow ones: sort $sort $dir, filter $balance',
  async ({ sort, dir, balance }) => {
    const view = `sort=${sort}&dir=${dir}${balance ? `&balance=${balance}` : ''}`;
    // The shallow page's last 99 clients are the deep page's first 99.
    const shallow = await list(`${view}&limit=100&offset=${DEFERRED_JOIN_OFFSET - 1}`);
    const deep = await list(`${view}&limit=100&offset=${DEFERRED_JOIN_OFFSET}`);
    expect(ids(deep.items).slice(0, shallow.items.length - 1)).toEqual(ids(shallow.items).slice(1));
    expect(deep.items.slice(0, 3)).toEqual(shallow.items.slice(1, 4));
    expect({ total: deep.total, totalOwed: deep.totalOwed }).toEqual({
      total: shallow.total,
      totalOwed: shallow.totalOwed,
    });
    expect(deep.items.length).toBe(
      Math.max(0, Math.min(100, shallow.total - DEFERRED_JOIN_OFFSET)),
    );
  },
);

test('the deep page of the default view is every client after the first 1,000, in order', async () => {
  const shallow = [
    ...(await list('limit=500&offset=0')).items,
    ...(await list('limit=500&offset=500')).items,
  ];
  const deep = await list(`limit=500&offset=${DEFERRED_JOIN_OFFSET}`);
  expect(deep.total).toBe(CLIENTS);
  expect(deep.items).toHaveLength(CLIENTS - DEFERRED_JOIN_OFFSET);
  const everyone = new Set([...ids(shallow), ...ids(deep.items)]);
  expect(everyone.size).toBe(CLIENTS);
});

test('a page past the worker offset answers no clients and the view’s own totals', async () => {
  for (const balance of [undefined, ...BALANCE_FILTERS]) {
    const filter = balance ? `&balance=${balance}` : '';
    const shallow = await list(`limit=1${filter}`);
    const far = await list(`limit=100&offset=${WORKER_OFFSET}${filter}`);
    expect(far).toEqual({ items: [], total: shallow.total, totalOwed: shallow.totalOwed });
  }
});
