import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { Client } from '../../shared/client-schema.ts';
import { formatAmount, MAX_BALANCE_PAISE } from '../../shared/money.ts';
import { searchTextOf } from '../../shared/search-text.ts';
import {
  addClient,
  clientFields,
  post,
  setPanelSettings,
  signUp,
  startTestApp,
  TEST_ORIGIN,
  type TestApp,
  testDialect,
} from '../test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: true });
});
afterAll(async () => {
  await t.close();
});

function patch(cookie: string, id: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'PATCH', url: `/api/clients/${id}`, headers: { cookie }, payload });
}

async function listJson(cookie: string, query = '') {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/clients${query}`,
    headers: { cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { items: Client[]; total: number; totalOwed: string };
}

describe('amounts with commas', () => {
  test('grouping commas where Indian or international grouping puts them are accepted', async () => {
    const { cookie } = await signUp(t.app);
    expect((await addClient(t.app, cookie, { balance: '1,00,000.50' })).balance).toBe('100000.50');
    expect((await addClient(t.app, cookie, { balance: '100,000.50' })).balance).toBe('100000.50');
  });

  test.each(['1,5', '1.2,5', '10,0000', '1,00'])(
    'a balance of "%s" is refused with a field error and nothing is stored',
    async (balance) => {
      const { cookie } = await signUp(t.app);
      const response = await post(t.app, '/api/clients', cookie, clientFields({ balance }));
      expect(response.statusCode).toBe(400);
      expect(response.json().fieldErrors.balance).toBe(
        'Use commas only between groups of digits, as in 1,00,000.50 or 100,000.50',
      );
      expect((await listJson(cookie)).total).toBe(0);
    },
  );
});

describe('totals beyond 2^53 paise', () => {
  test('stay exact through creates, edits and deletes', async () => {
    const { cookie, userId } = await signUp(t.app);
    const max = formatAmount(MAX_BALANCE_PAISE);
    const clients: Client[] = [];
    for (let i = 0; i < 10; i += 1) clients.push(await addClient(t.app, cookie, { balance: max }));
    // Only about 9,000 maximum balances reach 2^53 paise; the running total is set there
    // directly, as if they existed, and every later write must keep it exact.
    const offset = 2n ** 53n + 1n;
    await t.database.write((trx) =>
      trx
        .updateTable('owner_totals')
        .set({ total_paise: offset + MAX_BALANCE_PAISE * 10n })
        .where('owner_id', '=', userId)
        .execute(),
    );
    let expected = offset + MAX_BALANCE_PAISE * 10n;
    expect((await listJson(cookie)).totalOwed).toBe(formatAmount(expected));
    // Odd single paise: a total kept as a double would lose them past 2^53.
    for (const client of clients.slice(0, 5)) {
      const response = await patch(cookie, client.id, { version: 1, balance: '0.01' });
      expect(response.statusCode).toBe(200);
      expected += 1n - MAX_BALANCE_PAISE;
      expect((await listJson(cookie)).totalOwed).toBe(formatAmount(expected));
    }
    for (const client of clients.slice(5, 8)) {
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/clients/${client.id}`,
        headers: { cookie },
      });
      expect(response.statusCode).toBe(204);
      expected -= MAX_BALANCE_PAISE;
      expect((await listJson(cookie)).totalOwed).toBe(formatAmount(expected));
    }
    await addClient(t.app, cookie, { balance: '0.03' });
    expected += 3n;
    expect((await listJson(cookie)).totalOwed).toBe(formatAmount(expected));
  });

  test('a stored balance beyond 2^53 reads back exactly on every read path', async () => {
    const { cookie, userId } = await signUp(t.app);
    const big = 2n ** 53n + 3n; // not representable as a double
    const id = randomUUID();
    const fields = { fname: 'Huge', lname: 'Ledger', email: 'h@example.com', phone: '9000000009' };
    const now = new Date().toISOString();
    await t.database.write(async (trx) => {
      await trx
        .insertInto('clients')
        .values({
          id,
          owner_id: userId,
          ...fields,
          search_text: searchTextOf(fields),
          balance_paise: big,
          version: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx
        .insertInto('owner_totals')
        .values({
          owner_id: userId,
          client_count: 1n,
          total_paise: big,
          owing_count: 1n,
          owing_paise: big,
          credit_count: 0n,
          credit_paise: 0n,
        })
        .execute();
    });
    const text = formatAmount(big);
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${id}`,
      headers: { cookie },
    });
    expect(one.json().balance).toBe(text);
    for (const query of ['', '?sort=balance&dir=desc', '?q=ledger', '?q=hu', '?q=led&limit=1']) {
      const list = await listJson(cookie, query);
      expect(list.items[0]?.balance, query).toBe(text);
      expect(list.totalOwed, query).toBe(text);
    }
    // The live event and the 409 answer carry it exactly too.
    const socket = new WebSocket(await liveUrl(), { headers: { cookie }, origin: TEST_ORIGIN });
    const event = new Promise<Client>((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(String(data)).client)),
    );
    await new Promise((resolve) => socket.once('open', resolve));
    const renamed = await patch(cookie, id, { version: 1, fname: 'Huger' });
    expect(renamed.json().balance).toBe(text);
    expect((await event).balance).toBe(text);
    socket.close();
    const stale = await patch(cookie, id, { version: 1, fname: 'Stale' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().client.balance).toBe(text);
  });
});

async function liveUrl(): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  return `ws://127.0.0.1:${address.port}/api/live`;
}

describe('text that a database cannot store as sent', () => {
  const hostile = ['a\u0000b', 'x\ud800y', 'tab\there', 'bell\u0007', '\u202eAdmin'];

  test.each(['fname', 'lname', 'email', 'phone'])(
    'a %s with NUL, a control character or a lone surrogate is refused and nothing is stored',
    async (field) => {
      const { cookie } = await signUp(t.app);
      for (const value of hostile) {
        const response = await post(
          t.app,
          '/api/clients',
          cookie,
          clientFields({ [field]: `Name${value}` }),
        );
        expect(response.statusCode, JSON.stringify(value)).toBe(400);
        expect(response.json().fieldErrors[field], JSON.stringify(value)).toBeTruthy();
      }
      expect((await listJson(cookie)).total).toBe(0);
    },
  );

  test('an update with such text is refused and changes nothing', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie);
    const response = await patch(cookie, client.id, { version: 1, lname: 'Ver\u0000ma' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.lname).toBe(
      'Last name contains characters that cannot be stored (control or broken characters)',
    );
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(read.json()).toEqual(client);
  });

  test('a search or a path id with NUL is answered cleanly, never with a 5xx', async () => {
    const { cookie } = await signUp(t.app);
    const search = await t.app.inject({
      method: 'GET',
      url: '/api/clients?q=a%00b',
      headers: { cookie },
    });
    expect(search.statusCode).toBe(400);
    expect(search.json().fieldErrors.q).toBeTruthy();
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: '/api/clients/abc%00def',
        headers: { cookie },
        ...(method === 'PATCH' ? { payload: { version: 1, fname: 'Xx' } } : {}),
      });
      expect(response.statusCode, method).toBe(404);
      expect(response.json()).toEqual({ message: 'Client not found', code: 'client-not-found' });
    }
  });

  test('text in any script is stored and answered exactly as sent', async () => {
    const { cookie } = await signUp(t.app);
    const fields = { fname: 'Élodie 😀', lname: 'राम-李', email: 'elodie@example.com' };
    const client = await addClient(t.app, cookie, fields);
    expect(client).toMatchObject(fields);
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(read.json()).toMatchObject(fields);
  });
});

describe('search folds case the same way at every length and on both databases', () => {
  test.each(['é', 'él', 'élo', 'ÉLODIE', 'lodi', 'ï', 'Zoë'])(
    '"%s" finds what it should',
    async (q) => {
      const { cookie } = await signUp(t.app);
      await addClient(t.app, cookie, { fname: 'Élodie', lname: 'Zoë', email: 'e1@example.com' });
      await addClient(t.app, cookie, { fname: 'Ïsaac', lname: 'Dupont', email: 'i@example.com' });
      await addClient(t.app, cookie, { fname: 'Emile', lname: 'Martin', email: 'em@example.com' });
      const expected: Record<string, string[]> = {
        é: ['Élodie'],
        él: ['Élodie'],
        élo: ['Élodie'],
        ÉLODIE: ['Élodie'],
        lodi: ['Élodie'],
        ï: ['Ïsaac'],
        Zoë: ['Élodie'],
      };
      const found = await listJson(cookie, `?q=${encodeURIComponent(q)}`);
      expect(found.items.map((c) => c.fname)).toEqual(expected[q]);
    },
  );
});

describe('the balance lock on edit', () => {
  test('an edit that changes the balance with other fields is refused while the lock is on', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, { balance: '10' });
    const response = await patch(cookie, client.id, {
      version: 1,
      fname: 'Changed',
      balance: '99',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.balance).toBe(
      "The balance is locked by a setting: update it from the client's page",
    );
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(read.json()).toEqual(client);
  });

  test("the details page's balance-only update is allowed whatever the setting", async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, { balance: '10' });
    const response = await patch(cookie, client.id, { version: 1, balance: '99' });
    expect(response.statusCode).toBe(200);
    expect(response.json().balance).toBe('99.00');
  });

  test('with the lock off, an edit may change the balance', async () => {
    await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
    try {
      const { cookie } = await signUp(t.app);
      const client = await addClient(t.app, cookie, { balance: '10' });
      const response = await patch(cookie, client.id, {
        version: 1,
        fname: 'Changed',
        balance: '99',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ fname: 'Changed', balance: '99.00' });
    } finally {
      await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: true });
    }
  });
});

test.runIf(testDialect() === 'postgres')('runs on PostgreSQL', () => {
  expect(t.database.dialect).toBe('postgres');
});
