import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '../../shared/client-schema.ts';
import { addDays, daysBetween } from '../../shared/ledger-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { dateIn } from '../ledger/panel-date.ts';
import {
  PANEL_V01_OPERATORS,
  panelV01Copy,
  sessionCookie,
  startTestApp,
  type TestApp,
} from '../test-support.ts';

const { first: FIRST, second: SECOND } = PANEL_V01_OPERATORS;

let t: TestApp;
let panel: Awaited<ReturnType<typeof panelV01Copy>>;

beforeAll(async () => {
  panel = await panelV01Copy();
  t = await startTestApp({ database: panel.database });
});
afterAll(async () => {
  await t.close();
  await panel.drop();
});

async function signIn(who: { email: string; password: string }) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    payload: who,
  });
  expect(response.statusCode, response.body).toBe(200);
  return { cookie: sessionCookie(response), user: response.json().user };
}

describe('a panel made by version 0.1, upgraded', () => {
  test('its oldest account becomes the administrator, the other stays an operator', async () => {
    const first = await signIn(FIRST);
    const second = await signIn(SECOND);
    expect(first.user.role).toBe('admin');
    expect(second.user.role).toBe('operator');
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: first.cookie },
    });
    expect(session.json()).toEqual({
      // Accounts made before languages existed read English, as they always did.
      user: { id: first.user.id, email: FIRST.email, role: 'admin', language: 'en' },
    });
    // The account that signs up now is not an administrator: the panel already has one.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/get-session',
          headers: { cookie: t.admin.cookie },
        })
      ).json().user.role,
    ).toBe('operator');
  });

  test('settings, clients and exact totals are kept; only the administrator changes settings', async () => {
    const first = await signIn(FIRST);
    const second = await signIn(SECOND);
    const settings = await t.app.inject({ method: 'GET', url: '/api/settings' });
    expect(settings.json()).toEqual({
      allowRegistrations: true,
      disableBalanceOnAdd: false,
      disableBalanceOnEdit: true,
    });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie: first.cookie },
    });
    expect(list.json().total).toBe(3);
    expect(list.json().totalOwed).toBe(formatAmount(123_450n - 50_000n + 999_999_999_999n));
    // The totals split by sign were filled in for the old clients.
    for (const [filter, total, owed] of [
      ['owing', 2, 123_450n + 999_999_999_999n],
      ['credit', 1, -50_000n],
      ['settled', 0, 0n],
    ] as const) {
      const filtered = await t.app.inject({
        method: 'GET',
        url: `/api/clients?balance=${filter}`,
        headers: { cookie: first.cookie },
      });
      expect(filtered.json().total, filter).toBe(total);
      expect(filtered.json().totalOwed, filter).toBe(formatAmount(owed));
    }
    const put = (cookie: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: { cookie },
        payload: settings.json(),
      });
    expect((await put(second.cookie)).statusCode).toBe(403);
    expect((await put(first.cookie)).statusCode).toBe(200);
  });

  test('old clients are found by the folded search, short and long', async () => {
    const first = await signIn(FIRST);
    const second = await signIn(SECOND);
    const search = async (cookie: string, q: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/clients?q=${encodeURIComponent(q)}`,
          headers: { cookie },
        })
      )
        .json()
        .items.map((c: { fname: string }) => c.fname);
    expect(await search(first.cookie, 'é')).toEqual(['Élodie']);
    expect(await search(first.cookie, 'ÉLOD')).toEqual(['Élodie']);
    expect(await search(second.cookie, 'ïs')).toEqual(['Zoë']);
    expect(await search(second.cookie, 'zoë')).toEqual(['Zoë']);
    // Old phones (10 digits as typed) were rewritten in the one stored form.
    expect(await search(first.cookie, '098765-43210')).toEqual(['Élodie']);
    const elodie = await t.app.inject({
      method: 'GET',
      url: `/api/clients?q=${encodeURIComponent('élodie')}`,
      headers: { cookie: first.cookie },
    });
    expect(elodie.json().items[0].phone).toBe('+919876543210');
  });

  test('old balances open the ledger on their creation day, and the total’s history adds up', async () => {
    const first = await signIn(FIRST);
    const get = async (url: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: first.cookie },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const clients = (await get('/api/clients')).items as Client[];
    expect(clients).toHaveLength(3);
    for (const client of clients) {
      const { items } = await get(`/api/clients/${client.id}/entries`);
      const openedOn = dateIn('Asia/Kolkata', new Date(client.createdAt));
      expect(items, client.fname).toEqual([
        expect.objectContaining({
          kind: 'opening',
          amount: client.balance,
          balanceAfter: client.balance,
          on: openedOn,
        }),
      ]);
      expect(client.lastPaymentOn).toBeNull();
      const statement = await get(
        `/api/clients/${client.id}/statement?from=${openedOn}&to=${openedOn}`,
      );
      expect(statement).toMatchObject({ opening: '0.00', closing: client.balance });
    }
    const today = dateIn('Asia/Kolkata');
    const earliest = clients
      .map((client) => dateIn('Asia/Kolkata', new Date(client.createdAt)))
      .sort()[0] as string;
    const from = addDays(earliest, -1);
    const to = daysBetween(from, today) < 366 ? today : addDays(from, 365);
    const { points } = await get(`/api/totals/history?from=${from}&to=${to}`);
    expect(points[0]).toEqual({ on: from, totalOwed: '0.00' });
    const totals = await get('/api/totals');
    if (to === today) expect(points.at(-1).totalOwed).toBe(totals.totalOwed);
    expect(totals).toMatchObject({
      clients: 3,
      owing: formatAmount(123_450n + 999_999_999_999n),
      owingClients: 2,
      credit: '500.00',
      creditClients: 1,
    });
  });
});
