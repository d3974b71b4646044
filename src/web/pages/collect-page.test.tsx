import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { Book } from '../../shared/book-schema.ts';
import type { Client } from '../../shared/client-schema.ts';
import type { CollectItem, PromiseToPay } from '../../shared/dues-schema.ts';
import { changeLanguage } from '../i18n/language.ts';
import {
  apiClient,
  liveChannel,
  memberOf,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../test-utils.tsx';

stubLiveSocketInEachTest();

const TODAY = '2026-11-25';

function promiseOf(client: string, amount: string, by: string, status: PromiseToPay['status']) {
  return {
    id: `p-${client}`,
    amount,
    by,
    note: '',
    status,
    paid: '0.00',
    createdAt: '2026-11-18T10:00:00.000Z',
    createdBy: { id: 'u1', email: 'op@example.com' },
  } satisfies PromiseToPay;
}

const ravi: Client = {
  ...apiClient('r1', 'Ravi', 'Kumar', '9000.00'),
  overdue: '3000.00',
  overdueSince: '2026-09-12',
  lastRemindedOn: '2026-11-18',
};
const asha: Client = {
  ...apiClient('a1', 'Asha', 'Verma', '2500.00'),
  overdue: '2500.00',
  overdueSince: '2026-11-01',
  promise: { id: 'p-a1', amount: '2000.00', by: TODAY, status: 'open' },
};
const mohan: Client = {
  ...apiClient('m1', 'Mohan', 'Das', '800.00'),
  overdue: '800.00',
  overdueSince: '2026-11-10',
  promise: { id: 'p-m1', amount: '800.00', by: '2026-11-24', status: 'broken' },
};

const ROUND: CollectItem[] = [
  { client: ravi, reasons: ['overdue'], overdue: '3000.00', promise: null },
  {
    client: asha,
    reasons: ['promise-due', 'overdue'],
    overdue: '2500.00',
    promise: promiseOf('a1', '2000.00', TODAY, 'open'),
  },
  {
    client: mohan,
    reasons: ['promise-broken'],
    overdue: '800.00',
    promise: promiseOf('m1', '800.00', '2026-11-24', 'broken'),
  },
];

const totals = {
  clients: 3,
  totalOwed: '12300.00',
  owing: '12300.00',
  owingClients: 3,
  credit: '0.00',
  creditClients: 0,
  pendingClaims: 0,
  overdue: '6300.00',
  collectedThisMonth: '0.00',
  collectedLastMonth: '0.00',
  today: TODAY,
};

/** The round as the server holds it; a client dealt with leaves it and counts as done. */
function roundApi(items: CollectItem[] = ROUND, done = 9, books?: { items: Book[] }) {
  let round = { on: TODAY, items, remaining: items.length, done };
  const sent: { key: string; body: unknown }[] = [];
  let roundReads = 0;
  const dealtWith = (id: string) => {
    round = {
      ...round,
      items: round.items.filter((item) => item.client.id !== id),
      remaining: round.remaining - 1,
      done: round.done + 1,
    };
  };
  const api = mockApi({
    session: signedIn,
    ...(books ? { books } : {}),
    routes: {
      'GET /api/collect': () => {
        roundReads++;
        return { status: 200, body: round };
      },
      'GET /api/totals': () => ({ status: 200, body: totals }),
      'GET /api/clients': () => ({
        status: 200,
        body: { items: [ravi, asha, mohan], total: 3, totalOwed: '12300.00' },
      }),
      'GET /api/clients/r1/reminders/preview': () => ({
        status: 200,
        body: { message: 'Namaste Ravi, pay here: (statement link)', unavailable: {} },
      }),
      'POST /api/clients/r1/reminders': (init) => {
        sent.push({ key: 'remind r1', body: JSON.parse(String(init?.body)) });
        dealtWith('r1');
        return {
          status: 201,
          body: {
            id: 'rem1',
            channel: 'whatsapp',
            sentAt: '2026-11-25T10:00:00.000Z',
            message: 'Namaste Ravi, pay here: https://panel.example/s/tok',
            url: 'https://wa.me/919847012345?text=Namaste',
          },
        };
      },
      'POST /api/clients/r1/promises': (init) => {
        const body = JSON.parse(String(init?.body)) as { amount: string; by: string };
        sent.push({ key: 'promise r1', body });
        dealtWith('r1');
        return {
          status: 201,
          body: { ...promiseOf('r1', body.amount, body.by, 'open'), id: 'p-new' },
        };
      },
      'POST /api/clients/r1/skip': (init) => {
        sent.push({ key: 'skip r1', body: JSON.parse(String(init?.body)) });
        dealtWith('r1');
        return { status: 204 };
      },
      'POST /api/clients/a1/skip': () => ({
        status: 404,
        body: { message: 'Client not found', code: 'client-not-found' },
      }),
      'POST /api/clients/r1/entries': (init) => {
        const body = JSON.parse(String(init?.body)) as { amount: string; on: string };
        sent.push({ key: 'payment r1', body });
        dealtWith('r1');
        const client = { ...ravi, balance: '8000.00', overdue: '2000.00', version: 2 };
        return {
          status: 201,
          body: {
            client,
            entry: {
              id: 'e1',
              clientId: 'r1',
              kind: 'payment',
              amount: '-1000.00',
              balanceAfter: '8000.00',
              note: '',
              on: body.on,
              dueOn: null,
              createdAt: '2026-11-25T10:00:00.000Z',
              createdBy: { id: 'u1', email: 'op@example.com' },
            },
          },
        };
      },
    },
  });
  return {
    ...api,
    sent,
    reads: () => roundReads,
    elsewhere: { dealtWith },
  };
}

const rowOf = (table: HTMLElement, name: string) => {
  const header = within(table).getByRole('rowheader', { name });
  const row = header.closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return row;
};

async function sendLive(event: unknown) {
  const socket = await liveChannel();
  act(() => socket.onmessage?.({ data: JSON.stringify(event) }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the day's collection round", () => {
  test('the clients to see are listed biggest overdue first, each with why in words, and the day is counted', async () => {
    roundApi();
    renderApp('/collect');
    expect(await screen.findByRole('heading', { level: 1, name: 'Collect' })).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Ravi Kumar',
      'Asha Verma',
      'Mohan Das',
    ]);
    expect(rows[0]).toHaveTextContent('₹3,000.00 overdue 74 days, not reminded for 7 days');
    expect(rows[1]).toHaveTextContent('Promised ₹2,000.00 by today');
    expect(rows[1]).toHaveTextContent('₹2,500.00 overdue 24 days, never reminded');
    expect(rows[2]).toHaveTextContent('Promise broken (was due 24 Nov)');
    expect(screen.getByText('9 of 12 done today')).toBeVisible();
    for (const row of rows) {
      const name = within(row).getByRole('rowheader').textContent;
      expect(within(row).getByRole('button', { name: `Remind ${name}` })).toBeVisible();
      expect(
        within(row).getByRole('button', { name: `Record payment from ${name}` }),
      ).toBeVisible();
      expect(within(row).getByRole('button', { name: `Promise from ${name}` })).toBeVisible();
      expect(within(row).getByRole('button', { name: `Skip for today: ${name}` })).toBeVisible();
      // What a button says is in its name, so that a voice user saying it reaches it (WCAG 2.5.3).
      for (const button of within(row).getAllByRole('button')) {
        expect(button.getAttribute('aria-label') ?? '').toContain(button.textContent ?? '');
      }
    }
  });

  test('a client reminded from the round leaves it; closing the dialog, the focus goes to who is next', async () => {
    const { sent } = roundApi();
    renderApp('/collect');
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    await userEvent.click(
      within(rowOf(table, 'Ravi Kumar')).getByRole('button', { name: 'Remind Ravi Kumar' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remind Ravi Kumar' });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'WhatsApp' }));
    expect(await within(dialog).findByRole('link', { name: 'Open WhatsApp' })).toBeVisible();
    await waitFor(() =>
      expect(within(table).queryByRole('rowheader', { name: 'Ravi Kumar' })).toBeNull(),
    );
    expect(screen.getByText('10 of 12 done today')).toBeVisible();
    // The row has gone; the link to send the message is still there to tap.
    expect(within(dialog).getByRole('link', { name: 'Open WhatsApp' })).toBeVisible();
    expect(sent).toEqual([{ key: 'remind r1', body: { channel: 'whatsapp' } }]);
    // Closed, the dialog cannot give the focus back to Ravi's button: it goes to who is next.
    await userEvent.click(
      within(dialog).getAllByRole('button', { name: 'Close' })[0] as HTMLElement,
    );
    await waitFor(() =>
      expect(within(table).getByRole('link', { name: 'Asha Verma' })).toHaveFocus(),
    );
  });

  test('a promise recorded in the reminder shows there, and the client leaves the round', async () => {
    const { sent } = roundApi();
    renderApp('/collect');
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    await userEvent.click(
      within(rowOf(table, 'Ravi Kumar')).getByRole('button', { name: 'Remind Ravi Kumar' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Remind Ravi Kumar' });
    const part = within(dialog).getByRole('region', { name: 'Promise to pay' });
    await userEvent.click(within(part).getByRole('button', { name: 'Record a promise' }));
    expect(within(part).getByLabelText('Amount (₹)')).toHaveValue('3000.00');
    await waitFor(() =>
      expect(within(part).getByLabelText('Will pay by')).toHaveValue('2026-12-02'),
    );
    await userEvent.click(within(part).getByRole('button', { name: 'Save promise' }));
    expect(await within(part).findByText('Promised: ₹3,000.00 by 2 Dec')).toBeVisible();
    await waitFor(() =>
      expect(within(table).queryByRole('rowheader', { name: 'Ravi Kumar' })).toBeNull(),
    );
    expect(sent).toEqual([{ key: 'promise r1', body: { amount: '3000.00', by: '2026-12-02' } }]);
  });

  test('a client skipped for today leaves the round and counts as done; the focus goes to the client now in their place', async () => {
    const { sent } = roundApi();
    renderApp('/collect');
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    await userEvent.click(
      within(rowOf(table, 'Ravi Kumar')).getByRole('button', {
        name: 'Skip for today: Ravi Kumar',
      }),
    );
    await waitFor(() =>
      expect(within(table).queryByRole('rowheader', { name: 'Ravi Kumar' })).toBeNull(),
    );
    expect(screen.getByText('10 of 12 done today')).toBeVisible();
    expect(sent).toEqual([{ key: 'skip r1', body: {} }]);
    await waitFor(() =>
      expect(within(table).getByRole('link', { name: 'Asha Verma' })).toHaveFocus(),
    );
  });

  test('after a skip the round is the server’s again, with what changed meanwhile', async () => {
    const { elsewhere } = roundApi();
    renderApp('/collect');
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    // Mohan paid at the counter a moment ago; this tab has not heard yet.
    elsewhere.dealtWith('m1');
    await userEvent.click(
      within(rowOf(table, 'Ravi Kumar')).getByRole('button', {
        name: 'Skip for today: Ravi Kumar',
      }),
    );
    await waitFor(() =>
      expect(within(table).queryByRole('rowheader', { name: 'Mohan Das' })).toBeNull(),
    );
    expect(screen.getByText('11 of 12 done today')).toBeVisible();
  });

  test('a skip the server refuses says so and the client stays', async () => {
    roundApi();
    renderApp('/collect');
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    await userEvent.click(
      within(rowOf(table, 'Asha Verma')).getByRole('button', {
        name: 'Skip for today: Asha Verma',
      }),
    );
    expect(await screen.findByText(/Asha Verma was not skipped: Client not found/)).toBeVisible();
    expect(within(table).getByRole('rowheader', { name: 'Asha Verma' })).toBeVisible();
  });

  test('a payment recorded from the round is sent, and the paid client leaves it', async () => {
    const { sent } = roundApi();
    renderApp('/collect');
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    await userEvent.click(
      within(rowOf(table, 'Ravi Kumar')).getByRole('button', {
        name: 'Record payment from Ravi Kumar',
      }),
    );
    const form = await screen.findByRole('form', { name: 'Record payment' });
    await userEvent.type(within(form).getByLabelText('Amount (₹)'), '1000');
    await userEvent.click(within(form).getByRole('button', { name: 'Save payment' }));
    await waitFor(() =>
      expect(within(table).queryByRole('rowheader', { name: 'Ravi Kumar' })).toBeNull(),
    );
    expect(screen.queryByRole('form', { name: 'Record payment' })).toBeNull();
    expect(screen.getByText('10 of 12 done today')).toBeVisible();
    expect(sent).toEqual([
      { key: 'payment r1', body: { kind: 'payment', amount: '1000.00', on: TODAY, note: '' } },
    ]);
  });

  test('the Promise on a row opens the promise dialog for that client', async () => {
    roundApi();
    renderApp('/collect');
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    await userEvent.click(
      within(rowOf(table, 'Mohan Das')).getByRole('button', { name: 'Promise from Mohan Das' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Promise to pay: Mohan Das' });
    expect(within(dialog).getByLabelText('Amount (₹)')).toHaveValue('800.00');
  });

  test.each([
    [
      'a client reminded on another device',
      (id: string) => ({
        type: 'client.updated',
        client: { ...ravi, id, version: 5, lastRemindedOn: TODAY },
      }),
    ],
    ['a client skipped on another device', () => ({ type: 'collect.updated', on: TODAY })],
    [
      'a promise recorded on another device',
      () => ({
        type: 'promise.created',
        promise: promiseOf('r1', '500.00', '2026-11-30', 'open'),
        client: { ...ravi, version: 5 },
      }),
    ],
    [
      'a payment recorded on another device',
      () => ({
        type: 'entry.created',
        entry: {
          id: 'e9',
          clientId: 'r1',
          kind: 'payment',
          amount: '-100.00',
          balanceAfter: '8900.00',
          note: '',
          on: TODAY,
          dueOn: null,
          createdAt: '2026-11-25T10:00:00.000Z',
          createdBy: { id: 'u1', email: 'op@example.com' },
        },
        client: { ...ravi, version: 5 },
      }),
    ],
    ['a client deleted on another device', () => ({ type: 'client.deleted', id: 'r1' })],
    ['clients imported on another device', () => ({ type: 'clients.imported', count: 4 })],
  ])('%s takes them off the round here too', async (_what, event) => {
    const { elsewhere } = roundApi();
    renderApp('/collect');
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    expect(within(table).getByRole('rowheader', { name: 'Ravi Kumar' })).toBeVisible();
    elsewhere.dealtWith('r1');
    await sendLive(event('r1'));
    await waitFor(() =>
      expect(within(table).queryByRole('rowheader', { name: 'Ravi Kumar' })).toBeNull(),
    );
    expect(screen.getByText('10 of 12 done today')).toBeVisible();
  });

  test('a viewer sees the round without a column of actions they may not take', async () => {
    roundApi(ROUND, 9, memberOf('viewer'));
    renderApp('/collect');
    const table = await screen.findByRole('table', { name: 'Clients to see today' });
    await waitFor(() =>
      expect(within(table).queryByRole('columnheader', { name: 'Actions' })).toBeNull(),
    );
    expect(within(table).getAllByRole('columnheader')).toHaveLength(3);
    expect(within(table).queryAllByRole('button')).toHaveLength(0);
  });

  test('with nobody to see today at all, no "0 of 0 done" is shown', async () => {
    roundApi([], 0);
    renderApp('/collect');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Nothing to collect today' }),
    ).toBeVisible();
    expect(screen.queryByText(/0 of 0/)).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  test('when everyone is dealt with the page says there is nothing to collect today', async () => {
    roundApi([], 30);
    renderApp('/collect');
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Nothing to collect today' }),
    ).toBeVisible();
    expect(screen.getByText('30 of 30 done today')).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

describe('the round on a phone', () => {
  test('one client at a time, with their actions, and Next goes to the next one', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      addEventListener() {},
      removeEventListener() {},
    }));
    roundApi();
    renderApp('/collect');
    const card = await screen.findByRole('region', { name: 'Ravi Kumar' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('Asha Verma')).toBeNull();
    expect(card).toHaveTextContent('Client 1 of the 3 left');
    expect(card).toHaveTextContent('₹3,000.00 overdue 74 days, not reminded for 7 days');
    for (const name of [
      'Remind Ravi Kumar',
      'Record payment from Ravi Kumar',
      'Promise from Ravi Kumar',
      'Skip for today: Ravi Kumar',
    ]) {
      expect(within(card).getByRole('button', { name })).toBeVisible();
    }

    await userEvent.click(within(card).getByRole('button', { name: 'Next' }));
    const next = await screen.findByRole('region', { name: 'Asha Verma' });
    expect(next).toHaveTextContent('Client 2 of the 3 left');
    expect(next).toHaveTextContent('Promised ₹2,000.00 by today');

    await userEvent.click(within(next).getByRole('button', { name: 'Skip for today: Asha Verma' }));
    // Asha is not skipped (the server refused): she stays on screen with the reason.
    expect(await screen.findByText(/Asha Verma was not skipped/)).toBeVisible();
    await userEvent.click(within(next).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('region', { name: 'Mohan Das' })).toHaveTextContent(
      'Promise broken (was due 24 Nov)',
    );
  });
});

describe('the way to the round', () => {
  test('the dashboard links first to the round while it has work, and the navbar always', async () => {
    roundApi();
    renderApp('/dashboard');
    const link = await screen.findByRole('link', { name: 'Collect (3 to do)' });
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getAllByRole('link')[0]).toBe(link);
    expect(
      within(screen.getAllByRole('navigation')[0] as HTMLElement).getByRole('link', {
        name: 'Collect',
      }),
    ).toHaveAttribute('href', '/collect');
    await userEvent.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: 'Collect' })).toBeVisible();
  });

  test('the dashboard shows no Collect link when the round is done', async () => {
    const api = roundApi([], 4);
    renderApp('/dashboard');
    await screen.findByRole('checkbox', { name: 'Select Ravi Kumar' });
    await waitFor(() => expect(api.calls).toContain('GET /api/collect'));
    expect(screen.queryByRole('link', { name: /to do/ })).toBeNull();
  });
});

describe('the round in Hindi', () => {
  test('the day is counted and each reason said in Hindi, with Hindi dates; a payment is recorded with its flash in Hindi', async () => {
    await changeLanguage('hi');
    const { sent } = roundApi();
    renderApp('/collect');
    expect(await screen.findByRole('heading', { level: 1, name: 'वसूली' })).toBeVisible();
    const table = await screen.findByRole('table', { name: 'आज जिनसे वसूली करनी है' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('₹3,000.00 74 दिन से अतिदेय, 7 दिन से कोई रिमाइंडर नहीं');
    expect(rows[1]).toHaveTextContent('₹2,000.00 का वादा, आज तक');
    expect(rows[1]).toHaveTextContent('₹2,500.00 24 दिन से अतिदेय, कभी रिमाइंडर नहीं भेजा');
    expect(rows[2]).toHaveTextContent('वादा टूटा (24 नवंबर तक देना था)');
    expect(screen.getByText('आज 12 में से 9 निपटे')).toBeVisible();
    expect(within(table).getByRole('columnheader', { name: 'आज क्यों' })).toBeVisible();

    await userEvent.click(
      within(rowOf(table, 'Ravi Kumar')).getByRole('button', {
        name: 'Ravi Kumar से भुगतान दर्ज करें',
      }),
    );
    const form = await screen.findByRole('form', { name: 'भुगतान दर्ज करें' });
    const amount = within(form).getByLabelText('राशि (₹)');
    await userEvent.type(amount, '9500');
    expect(
      within(form).getByText(
        'यह Ravi Kumar के ₹9,000.00 बकाया से ज़्यादा है: इसके बाद उनका ₹500.00 अग्रिम रहेगा।',
      ),
    ).toBeVisible();
    await userEvent.clear(amount);
    await userEvent.type(amount, '1000');
    await userEvent.click(within(form).getByRole('button', { name: 'भुगतान सहेजें' }));
    expect(await screen.findByText('भुगतान दर्ज हो गया')).toBeVisible();
    expect(await screen.findByText('आज 12 में से 10 निपटे')).toBeVisible();
    expect(sent.map(({ key }) => key)).toEqual(['payment r1']);
  });

  test('a refusal is said in Hindi, and on a phone the card counts in Hindi', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query.includes('max-width'),
      addEventListener() {},
      removeEventListener() {},
    }));
    await changeLanguage('hi');
    roundApi();
    renderApp('/collect');
    const card = await screen.findByRole('region', { name: 'Ravi Kumar' });
    expect(card).toHaveTextContent('बाकी 3 में से 1');
    expect(card).toHaveTextContent('₹3,000.00 अतिदेय');
    await userEvent.click(within(card).getByRole('button', { name: 'अगला' }));
    const next = await screen.findByRole('region', { name: 'Asha Verma' });
    expect(next).toHaveTextContent('बाकी 3 में से 2');
    await userEvent.click(within(next).getByRole('button', { name: 'Asha Verma को आज के लिए छोड़ें' }));
    expect(await screen.findByText(/^Asha Verma को छोड़ा नहीं जा सका: /)).toBeVisible();
  });

  test('with everyone dealt with, the page says so in Hindi', async () => {
    await changeLanguage('hi');
    roundApi([], 30);
    renderApp('/collect');
    expect(await screen.findByRole('heading', { level: 2, name: 'आज कोई वसूली नहीं' })).toBeVisible();
    expect(screen.getByText('आज 30 में से 30 निपटे')).toBeVisible();
    expect(screen.getByText('आज की वसूली के सभी ग्राहक निपट गए।')).toBeVisible();
  });
});
