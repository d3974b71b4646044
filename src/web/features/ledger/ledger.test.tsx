import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { DEFAULT_COLLECTION_SETTINGS } from '../../../shared/collection-schema.ts';
import { addDays, type Entry, type Statement } from '../../../shared/ledger-schema.ts';
import { changeLanguage } from '../../i18n/language.ts';
import { formatDay, todayHere } from '../../lib/dates.ts';
import {
  type ApiRoutes,
  apiClient,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';
import { overpaymentWarning, termsDueText } from './entry-form.tsx';
import { runningBalances } from './statement-page.tsx';

stubLiveSocketInEachTest();

const client = apiClient('c1', 'Meera', 'Pillai', '1000.00');

function entry(id: string, kind: Entry['kind'], amount: string, balanceAfter: string, on: string) {
  return {
    id,
    clientId: 'c1',
    kind,
    amount,
    balanceAfter,
    note: '',
    on,
    dueOn: kind === 'charge' || kind === 'opening' ? on : null,
    createdAt: '2026-01-01T00:00:00.000Z',
    createdBy: { id: 'u1', email: 'op@example.com' },
  } satisfies Entry;
}

const opening = entry('1', 'opening', '1000.00', '1000.00', '2026-01-01');

/** The statement of Jan–Mar 2026 from an opening balance of 1,000: nothing else unless given. */
function firstQuarterStatement(changes: Partial<Statement>) {
  return {
    status: 200,
    body: {
      client,
      from: '2026-01-01',
      to: '2026-03-31',
      opening: '1000.00',
      charges: '0.00',
      payments: '0.00',
      closing: '1000.00',
      entries: [],
      ...changes,
    },
  };
}

function detailsApi(extra: ApiRoutes = {}) {
  return mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients/c1': () => ({ status: 200, body: client }),
      'GET /api/collection-settings': () => ({
        status: 200,
        body: { ...DEFAULT_COLLECTION_SETTINGS, paymentTermsDays: 15 },
      }),
      'GET /api/clients/c1/entries': () => ({
        status: 200,
        body: { items: [opening], nextCursor: null },
      }),
      ...extra,
    },
  });
}

describe('payments and charges on the client page', () => {
  test('a payment is sent with today’s date and its note; balance and history follow', async () => {
    let sent: unknown;
    const paid = entry('2', 'payment', '-300.00', '700.00', todayHere());
    let entries = [opening];
    detailsApi({
      'GET /api/clients/c1/entries': () => ({
        status: 200,
        body: { items: entries, nextCursor: null },
      }),
      'POST /api/clients/c1/entries': (init) => {
        sent = JSON.parse(String(init?.body));
        entries = [paid, opening];
        return {
          status: 201,
          body: {
            entry: paid,
            client: { ...client, balance: '700.00', version: 2, lastPaymentOn: paid.on },
          },
        };
      },
    });
    renderApp('/client/c1');
    expect(await screen.findByRole('heading', { name: /Balance: ₹1,000.00/ })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Record payment' }));
    const form = screen.getByRole('form', { name: 'Record payment' });
    await userEvent.type(within(form).getByLabelText('Amount (₹)'), '300');
    await userEvent.type(within(form).getByLabelText('Note (optional)'), 'Cash');
    await userEvent.click(within(form).getByRole('button', { name: 'Save payment' }));

    expect(await screen.findByRole('heading', { name: /Balance: ₹700.00/ })).toBeVisible();
    expect(sent).toEqual({ kind: 'payment', amount: '300.00', on: todayHere(), note: 'Cash' });
    const history = screen.getByRole('table', { name: 'History' });
    expect(await within(history).findByText('−₹300.00')).toHaveClass('balance-clear');
    expect(screen.queryByRole('form', { name: 'Record payment' })).toBeNull();
    // The keyboard is back where it was, not lost on the page.
    expect(screen.getByRole('button', { name: 'Record payment' })).toHaveFocus();
  });

  test('Escape leaves the form, sending nothing, with the focus on the button that opened it', async () => {
    let sent = 0;
    detailsApi({
      'POST /api/clients/c1/entries': () => {
        sent += 1;
        return { status: 500, body: {} };
      },
    });
    renderApp('/client/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Add charge' }));
    const form = screen.getByRole('form', { name: 'Add charge' });
    await userEvent.type(within(form).getByLabelText('Amount (₹)'), '250');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('form', { name: 'Add charge' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Add charge' })).toHaveFocus();
    expect(sent).toBe(0);
  });

  test('a refused charge keeps the form, says why under the field, and changes nothing', async () => {
    detailsApi({
      'POST /api/clients/c1/entries': () => ({
        status: 400,
        body: {
          message: 'The balance would pass ₹1,00,00,00,000.00',
          fieldErrors: { amount: 'The balance would pass ₹1,00,00,00,000.00' },
        },
      }),
    });
    renderApp('/client/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Add charge' }));
    const form = screen.getByRole('form', { name: 'Add charge' });
    await userEvent.type(within(form).getByLabelText('Amount (₹)'), '999999999');
    await userEvent.click(within(form).getByRole('button', { name: 'Save charge' }));
    expect(
      await within(form).findByText('The balance would pass ₹1,00,00,00,000.00'),
    ).toBeVisible();
    expect(screen.getByRole('heading', { name: /Balance: ₹1,000.00/ })).toBeVisible();
  });

  test('a charge with no due date is left to the payment terms, and the form says when that is', async () => {
    const sent: unknown[] = [];
    const charged = entry('2', 'charge', '500.00', '1500.00', todayHere());
    detailsApi({
      'POST /api/clients/c1/entries': (init) => {
        sent.push(JSON.parse(String(init?.body)));
        return { status: 201, body: { entry: charged, client: { ...client, version: 2 } } };
      },
    });
    renderApp('/client/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Add charge' }));
    const form = screen.getByRole('form', { name: 'Add charge' });
    const due = within(form).getByLabelText('Due on (optional)');
    expect(due).toHaveValue('');
    expect(
      await within(form).findByText(
        `Empty: due in 15 days (payment terms), on ${formatDay(addDays(todayHere(), 15))}.`,
      ),
    ).toBeVisible();
    await userEvent.type(within(form).getByLabelText('Amount (₹)'), '500');
    await userEvent.click(within(form).getByRole('button', { name: 'Save charge' }));
    await screen.findByText('Charge added');
    expect(sent).toEqual([{ kind: 'charge', amount: '500.00', on: todayHere(), note: '' }]);
  });

  test('a charge is sent with the due date picked', async () => {
    const sent: unknown[] = [];
    const on = todayHere();
    const charged = { ...entry('2', 'charge', '500.00', '1500.00', on), dueOn: addDays(on, 3) };
    detailsApi({
      'POST /api/clients/c1/entries': (init) => {
        sent.push(JSON.parse(String(init?.body)));
        return { status: 201, body: { entry: charged, client: { ...client, version: 2 } } };
      },
    });
    renderApp('/client/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Add charge' }));
    const form = screen.getByRole('form', { name: 'Add charge' });
    await userEvent.type(within(form).getByLabelText('Amount (₹)'), '500');
    fireEvent.change(within(form).getByLabelText('Due on (optional)'), {
      target: { value: addDays(on, 3) },
    });
    await userEvent.click(within(form).getByRole('button', { name: 'Save charge' }));
    await screen.findByText('Charge added');
    expect(sent).toEqual([
      { kind: 'charge', amount: '500.00', on, dueOn: addDays(on, 3), note: '' },
    ]);
  });

  test('a due date before the charge’s date is refused under the field before sending', async () => {
    const { calls } = detailsApi();
    renderApp('/client/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Add charge' }));
    const form = screen.getByRole('form', { name: 'Add charge' });
    await userEvent.type(within(form).getByLabelText('Amount (₹)'), '500');
    const due = within(form).getByLabelText('Due on (optional)');
    fireEvent.change(due, { target: { value: addDays(todayHere(), -1) } });
    await userEvent.click(within(form).getByRole('button', { name: 'Save charge' }));
    expect(
      await within(form).findByText('The due date must be on or after the date of the charge'),
    ).toBeVisible();
    expect(due).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  test('the server’s refusal of a due date is shown under the due date', async () => {
    detailsApi({
      'POST /api/clients/c1/entries': () => ({
        status: 400,
        body: {
          message: 'The due date must be on or after the date',
          fieldErrors: { dueOn: 'The due date must be on or after the date' },
        },
      }),
    });
    renderApp('/client/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Add charge' }));
    const form = screen.getByRole('form', { name: 'Add charge' });
    await userEvent.type(within(form).getByLabelText('Amount (₹)'), '500');
    const due = within(form).getByLabelText('Due on (optional)');
    fireEvent.change(due, { target: { value: addDays(todayHere(), 2) } });
    await userEvent.click(within(form).getByRole('button', { name: 'Save charge' }));
    expect(
      await within(form).findByText('The due date must be on or after the date', {
        selector: '.invalid-feedback',
      }),
    ).toBeVisible();
    expect(due).toHaveAttribute('aria-invalid', 'true');
  });

  test('a payment has no due date', async () => {
    detailsApi();
    renderApp('/client/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Record payment' }));
    const form = screen.getByRole('form', { name: 'Record payment' });
    expect(within(form).getByLabelText('Amount (₹)')).toBeVisible();
    expect(within(form).queryByLabelText('Due on (optional)')).toBeNull();
  });

  test('the amount is checked before sending: positive, at most 2 decimals', async () => {
    const { calls } = detailsApi();
    renderApp('/client/c1');
    await userEvent.click(await screen.findByRole('button', { name: 'Add charge' }));
    const form = screen.getByRole('form', { name: 'Add charge' });
    const amount = within(form).getByLabelText('Amount (₹)');
    await userEvent.type(amount, '-5');
    await userEvent.click(within(form).getByRole('button', { name: 'Save charge' }));
    expect(
      await within(form).findByText(/Amount must be more than 0|Enter a number/),
    ).toBeVisible();
    await userEvent.clear(amount);
    await userEvent.type(amount, '1.005');
    expect(
      await within(form).findByText('Enter a number with at most 2 decimal places'),
    ).toBeVisible();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  test('older entries load a page at a time with the cursor given', async () => {
    const urls: string[] = [];
    const fetchPage = vi.fn();
    detailsApi();
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url.includes('/entries')) {
        urls.push(url);
        fetchPage();
        const older = url.includes('cursor=');
        return Promise.resolve(
          new Response(
            JSON.stringify(
              older
                ? { items: [opening], nextCursor: null }
                : {
                    items: [entry('2', 'charge', '5.00', '1005.00', '2026-02-01')],
                    nextCursor: 'Xq3vN0dWJ7rB-k2Lp9sT_w',
                  },
            ),
            { status: 200, headers: { 'content-type': 'application/json' } },
          ),
        );
      }
      return original(input, init);
    });
    renderApp('/client/c1');
    const history = await screen.findByRole('table', { name: 'History' });
    expect(await within(history).findByText('+₹5.00')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Show older entries' }));
    expect(await within(history).findByText('Opening balance')).toBeVisible();
    expect(urls.at(-1)).toContain('cursor=Xq3vN0dWJ7rB-k2Lp9sT_w');
    expect(screen.queryByRole('button', { name: 'Show older entries' })).toBeNull();
  });
});

const totalsOn = (today: string) => ({
  clients: 1,
  totalOwed: '3000.00',
  owing: '3000.00',
  owingClients: 1,
  credit: '0.00',
  creditClients: 0,
  pendingClaims: 0,
  overdue: '3000.00',
  collectedThisMonth: '0.00',
  collectedLastMonth: '0.00',
  today,
});

const ageing = {
  today: '2025-11-25',
  totalOverdue: '3000.00',
  buckets: (['current', '1-30', '31-60', '61-90', '90+'] as const).map((key) => ({
    key,
    amount: '1000.00',
    clients: 1,
  })),
};

/** The dashboard's reads on 25 Nov 2025: this list and these totals, the `ageing` above. */
function dashboardApi(list: unknown, totals: unknown) {
  mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({ status: 200, body: list }),
      'GET /api/totals': () => ({ status: 200, body: totals }),
      'GET /api/totals/history': () => ({ status: 200, body: { points: [] } }),
      'GET /api/ageing': () => ({ status: 200, body: ageing }),
      'GET /api/collect': () => ({
        status: 200,
        body: { on: '2025-11-25', items: [], remaining: 0, done: 0 },
      }),
    },
  });
}

describe("the dashboard's figures", () => {
  async function dashboardWith(owing: string, overdue: string) {
    dashboardApi(
      { items: [], total: 0, totalOwed: '0.00' },
      { ...totalsOn('2025-11-25'), owing, overdue, totalOwed: owing },
    );
    renderApp('/dashboard');
    const owed = await screen.findByRole('region', { name: 'Owed to you' });
    const late = screen.getByRole('region', { name: 'Overdue' });
    // The figure's line, which carries its colour.
    return {
      owed: (await within(owed).findByText(/^₹/)).closest('p'),
      late: (await within(late).findByText(/^₹/)).closest('p'),
    };
  }

  test('what is owed and overdue shows in the colour of a debt', async () => {
    const { owed, late } = await dashboardWith('3000.00', '1000.00');
    expect(owed).toHaveClass('balance-owing');
    expect(late).toHaveClass('balance-owing');
  });

  test('nothing owed or overdue is not shown as a debt', async () => {
    const { owed, late } = await dashboardWith('0.00', '0.00');
    expect(owed).toHaveTextContent('₹0.00');
    expect(owed).toHaveClass('balance-clear');
    expect(late).toHaveClass('balance-clear');
  });
});

describe('what is due and overdue on the client page', () => {
  test('an overdue client’s page says how much, since when and for how many days (the panel’s today)', async () => {
    const overdue = {
      ...client,
      balance: '3500.00',
      overdue: '3000.00',
      overdueSince: '2025-09-12',
    };
    detailsApi({
      'GET /api/clients/c1': () => ({ status: 200, body: overdue }),
      'GET /api/totals': () => ({ status: 200, body: totalsOn('2025-11-25') }),
    });
    renderApp('/client/c1');
    expect(await screen.findByText('₹3,000.00 overdue since 12 Sept 2025, 74 days')).toBeVisible();
  });

  test('a client with nothing overdue has no overdue line', async () => {
    const { calls } = detailsApi();
    renderApp('/client/c1');
    expect(await screen.findByRole('heading', { name: /Balance: ₹1,000.00/ })).toBeVisible();
    expect(screen.queryByText(/overdue since/)).toBeNull();
    expect(calls).not.toContain('GET /api/totals');
  });

  test('what a charge added shows when it is due in the history; a payment shows none', async () => {
    detailsApi({
      'GET /api/clients/c1/entries': () => ({
        status: 200,
        body: {
          items: [
            { ...entry('3', 'payment', '-100.00', '1400.00', '2026-10-02'), dueOn: null },
            { ...entry('2', 'charge', '500.00', '1500.00', '2026-09-27'), dueOn: '2026-10-12' },
            opening,
          ],
          nextCursor: null,
        },
      }),
    });
    renderApp('/client/c1');
    const history = await screen.findByRole('table', { name: 'History' });
    const rows = within(history).getAllByRole('row');
    expect(await within(rows[2] as HTMLElement).findByText('due 12 Oct 2026')).toBeVisible();
    expect(within(rows[1] as HTMLElement).queryByText(/due/)).toBeNull();
  });
});

describe('what the operator is told', () => {
  test('a payment larger than what is owed says the client goes into credit', () => {
    expect(overpaymentWarning(client, '999')).toBeNull();
    expect(overpaymentWarning(client, '1000')).toBeNull();
    expect(overpaymentWarning(client, '1,250.50')).toBe(
      'This is more than the ₹1,000.00 Meera Pillai owes: after it they will be ₹250.50 in credit.',
    );
    expect(overpaymentWarning({ ...client, balance: '0.00' }, '5')).toBe(
      'Meera Pillai owes nothing: after this payment they will be ₹5.00 in credit.',
    );
    expect(overpaymentWarning({ ...client, balance: '-2.00' }, '5')).toBe(
      'Meera Pillai is already ₹2.00 in credit: after this payment they will be ₹7.00 in credit.',
    );
    expect(overpaymentWarning(client, 'abc')).toBeNull();
  });

  test('the payment terms say when a charge falls due', () => {
    expect(termsDueText(15, '2026-10-05')).toBe('due in 15 days (payment terms), on 20 Oct 2026');
    expect(termsDueText(1, '2026-10-05')).toBe('due in 1 day (payment terms), on 6 Oct 2026');
    expect(termsDueText(0, '2026-10-05')).toBe('due at once (payment terms), on 5 Oct 2026');
    expect(termsDueText(30, '')).toBe('due in 30 days (payment terms)');
  });

  test('a statement’s balances run in date order from its opening balance', () => {
    // Recorded in this order, the payment dated before the charge: each entry's own
    // balanceAfter is the balance when it was recorded, not on its date.
    const statement: Pick<Statement, 'opening' | 'entries'> = {
      opening: '100.00',
      entries: [
        entry('3', 'payment', '-40.00', '560.00', '2026-03-01'),
        entry('2', 'charge', '500.00', '600.00', '2026-03-05'),
        entry('4', 'adjustment', '-0.01', '559.99', '2026-03-09'),
      ],
    };
    expect(runningBalances(statement)).toEqual(['60.00', '560.00', '559.99']);
  });
});

describe('the ledger in Hindi', () => {
  test('the dashboard’s totals and ageing read in Hindi, the day and the counts too', async () => {
    await changeLanguage('hi');
    dashboardApi(
      { items: [client], total: 1, totalOwed: '1000.00' },
      {
        ...totalsOn('2025-11-25'),
        owingClients: 3,
        credit: '200.00',
        creditClients: 1,
        pendingClaims: 1,
        collectedLastMonth: '4800.50',
      },
    );
    renderApp('/dashboard');
    const table = await screen.findByRole('table', { name: 'बकाया की उम्र' });
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'अभी देय नहीं',
      '1–30 दिन',
      '31–60 दिन',
      '61–90 दिन',
      '90 दिन से ज़्यादा',
      'अतिदेय',
      'कुल बकाया',
    ]);
    expect(within(table).getByRole('columnheader', { name: 'ग्राहक' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'बकाया की उम्र, 25 नवंबर 2025' })).toBeVisible();
    expect(screen.getByRole('region', { name: 'आपको मिलना है' })).toHaveTextContent('3 ग्राहकों से');
    expect(screen.getByRole('region', { name: 'अग्रिम जमा' })).toHaveTextContent('1 ग्राहक का');
    expect(screen.getByRole('region', { name: 'इस महीने की वसूली' })).toHaveTextContent(
      'पिछले महीने ₹4,800.50',
    );
    expect(screen.getByTestId('pending-claims')).toHaveTextContent(
      'ग्राहकों से आई 1 भुगतान की सूचना जाँचनी है',
    );
    expect(screen.getByRole('link', { name: 'CSV डाउनलोड करें' })).toBeVisible();
  });

  test('the statement to print reads in Hindi, with Hindi dates', async () => {
    await changeLanguage('hi');
    const payment = {
      ...entry('2', 'payment', '-300.00', '700.00', '2026-02-10'),
      dueOn: null,
      note: 'नकद',
    };
    detailsApi({
      'GET /api/clients/c1/statement': () =>
        firstQuarterStatement({ payments: '300.00', closing: '700.00', entries: [payment] }),
    });
    renderApp('/client/c1/statement?from=2026-01-01&to=2026-03-31');
    expect(await screen.findByRole('heading', { name: 'खाता विवरण' })).toBeVisible();
    expect(screen.getByText('1 जनवरी 2026 से 31 मार्च 2026 तक')).toBeVisible();
    const entries = screen.getByRole('table', { name: 'प्रविष्टियाँ' });
    expect(within(entries).getAllByRole('row')[1]).toHaveTextContent(
      '1 जनवरी 2026पिछला बकाया₹1,000.00',
    );
    expect(within(entries).getAllByRole('row')[2]).toHaveTextContent(
      '10 फ़रवरी 2026भुगतान · नकद₹300.00₹700.00',
    );
    expect(within(entries).getByText('अंतिम बकाया')).toBeVisible();
    expect(screen.getByRole('button', { name: 'प्रिंट करें' })).toBeVisible();
    await waitFor(() => expect(document.title).toMatch(/^खाता विवरण: Meera Pillai/));
  });

  test('a statement that ends before the latest entry says the balance now, and shows it on asking', async () => {
    const asked: string[] = [];
    detailsApi({
      'GET /api/clients/c1': () => ({ status: 200, body: { ...client, balance: '1010.00' } }),
      'GET /api/clients/c1/statement': (_init: RequestInit | undefined, url?: URL) => {
        asked.push(url?.searchParams.get('to') ?? '');
        return firstQuarterStatement({});
      },
    });
    renderApp('/client/c1/statement?from=2026-01-01&to=2026-03-31');
    const note = await screen.findByText(
      'Entries dated after 31 Mar 2026 are not on this statement: the balance now is ₹1,010.00.',
    );
    expect(screen.getByRole('article', { name: 'Statement of account' })).not.toContainElement(
      note,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Include them' }));
    await waitFor(() => expect(asked.at(-1)).toBe(addDays(todayHere(), 1)));
  });

  test('a statement that closes on the balance says nothing more', async () => {
    detailsApi({ 'GET /api/clients/c1/statement': () => firstQuarterStatement({}) });
    renderApp('/client/c1/statement?from=2026-01-01&to=2026-03-31');
    await screen.findByRole('article', { name: 'Statement of account' });
    expect(screen.queryByText(/are not on this statement/)).not.toBeInTheDocument();
  });

  test('the statement to print says whose business it is from and how to pay it', async () => {
    detailsApi({
      'GET /api/collection-settings': () => ({
        status: 200,
        body: {
          ...DEFAULT_COLLECTION_SETTINGS,
          businessName: 'Sharma Traders',
          upiId: 'sharma@okbank',
          otherWaysToPay: 'Cash at the shop\nNEFT: 1234',
        },
      }),
      'GET /api/clients/c1/statement': () => firstQuarterStatement({}),
    });
    renderApp('/client/c1/statement?from=2026-01-01&to=2026-03-31');
    const sheet = await screen.findByRole('article', { name: 'Statement of account' });
    expect(await within(sheet).findByText('Sharma Traders')).toBeVisible();
    expect(within(sheet).getByText('Pay by UPI to sharma@okbank')).toBeVisible();
    expect(within(sheet).getByText(/Other ways to pay: Cash at the shop/)).toHaveTextContent(
      'NEFT: 1234',
    );
  });

  test('the payment terms and a payment larger than what is owed are said in Hindi', async () => {
    await changeLanguage('hi');
    expect(termsDueText(15, '2026-10-05')).toBe('15 दिन में देय (भुगतान की अवधि), 20 अक्टूबर 2026 को');
    expect(termsDueText(0, '2026-10-05')).toBe('तुरंत देय (भुगतान की अवधि), 5 अक्टूबर 2026 को');
    expect(overpaymentWarning({ ...client, balance: '-2.00' }, '5')).toBe(
      'Meera Pillai का पहले से ₹2.00 अग्रिम है: इस भुगतान के बाद उनका ₹7.00 अग्रिम रहेगा।',
    );
  });
});
