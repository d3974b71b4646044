import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  apiClient,
  liveChannel,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../test-utils.tsx';

stubLiveSocketInEachTest();

/** Which dialogs' chunks fail to download, as after a deploy removed them or offline. */
const failing = vi.hoisted(() => new Set<string>());

vi.mock('../features/clients/import-dialog.tsx', async (original) => {
  if (failing.has('import')) throw new Error('Failed to fetch dynamically imported module');
  return original();
});
vi.mock('../features/clients/bulk-delete-dialog.tsx', async (original) => {
  if (failing.has('delete')) throw new Error('Failed to fetch dynamically imported module');
  return original();
});

const asha = apiClient('a1', 'Asha', 'Verma', '100.00');

function dashboardApi() {
  mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({
        status: 200,
        body: { items: [asha], total: 1, totalOwed: '100.00' },
      }),
      'GET /api/totals': () => ({
        status: 200,
        body: { owed: '100.00', credit: '0.00', net: '100.00', clients: 1, pendingClaims: 0 },
      }),
    },
  });
}

/** The alert that says a dialog did not load (the flash messages' region is an alert too). */
async function dialogAlert(text: RegExp): Promise<HTMLElement> {
  const alert = (await screen.findByText(text)).closest<HTMLElement>('[role="alert"]');
  if (!alert) throw new Error(`No alert around ${text}`);
  return alert;
}

describe('a dialog whose code does not load', () => {
  let consoleError: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    failing.clear();
    // The failed load is logged on purpose (and by React); the tests look at the screen.
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => consoleError.mockRestore());

  test('the import says so in its place, the dashboard stays, and Try again opens it', async () => {
    failing.add('import');
    dashboardApi();
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'Import' }));

    const alert = await dialogAlert(/Could not open the import/);
    expect(screen.getByRole('checkbox', { name: 'Select Asha Verma' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Clients' })).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull();
    expect(consoleError).toHaveBeenCalledWith('The import could not be loaded:', expect.any(Error));

    failing.delete('import');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('dialog', { name: 'Import clients' })).toBeVisible();
    expect(screen.queryByText(/Could not open the import/)).toBeNull();
  });

  test('the bulk delete says so in its place, Close takes it away, and the list stays', async () => {
    failing.add('delete');
    dashboardApi();
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Asha Verma' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));

    const alert = await dialogAlert(/Could not open the delete dialog/);
    expect(screen.getByRole('checkbox', { name: 'Select Asha Verma' })).toBeChecked();

    await userEvent.click(within(alert).getByRole('button', { name: 'Close' }));
    expect(screen.queryByText(/Could not open the delete dialog/)).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Select Asha Verma' })).toBeVisible();
  });
});

const totals = {
  clients: 3,
  totalOwed: '9500.00',
  owing: '9500.00',
  owingClients: 3,
  credit: '0.00',
  creditClients: 0,
  pendingClaims: 0,
  overdue: '7000.00',
  collectedThisMonth: '1250.00',
  collectedLastMonth: '4800.50',
  today: '2025-11-25',
};

const ageing = {
  today: '2025-11-25',
  totalOverdue: '7000.00',
  buckets: [
    { key: 'current', amount: '2500.00', clients: 2 },
    { key: '1-30', amount: '1000.00', clients: 1 },
    { key: '31-60', amount: '3000.00', clients: 1 },
    { key: '61-90', amount: '0.00', clients: 0 },
    { key: '90+', amount: '3000.00', clients: 1 },
  ],
};

function agedDashboardApi() {
  return mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({
        status: 200,
        body: { items: [asha], total: 1, totalOwed: '100.00' },
      }),
      'GET /api/totals': () => ({ status: 200, body: totals }),
      'GET /api/totals/history': () => ({ status: 200, body: { points: [] } }),
      'GET /api/ageing': () => ({ status: 200, body: ageing }),
    },
  });
}

function figure(title: string): HTMLElement {
  return screen.getByRole('region', { name: title });
}

describe('what is overdue and collected, on the dashboard', () => {
  test('the overdue total, and what was collected this month beside last month', async () => {
    agedDashboardApi();
    renderApp('/dashboard');
    await screen.findByRole('region', { name: 'Overdue' });
    await waitFor(() => expect(figure('Overdue')).toHaveTextContent('₹7,000.00'));
    expect(figure('Collected this month')).toHaveTextContent('₹1,250.00');
    expect(figure('Collected this month')).toHaveTextContent('₹4,800.50 last month');
  });

  test('the ageing shows each bucket’s amount and clients, as of the panel’s day', async () => {
    agedDashboardApi();
    renderApp('/dashboard');
    const table = await screen.findByRole('table', { name: 'Ageing' });
    const row = (label: string) =>
      within(table).getByRole('rowheader', { name: label }).closest('tr') as HTMLElement;
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Not yet due',
      '1–30 days',
      '31–60 days',
      '61–90 days',
      'Over 90 days',
      'Overdue',
      'Owed in all',
    ]);
    const cells = (label: string) =>
      within(row(label))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells('Not yet due')).toEqual(['₹2,500.00', '2']);
    expect(cells('31–60 days')).toEqual(['₹3,000.00', '1']);
    expect(cells('61–90 days')).toEqual(['₹0.00', '0']);
    expect(row('Overdue')).toHaveTextContent('₹7,000.00');
    expect(row('Owed in all')).toHaveTextContent('₹9,500.00');
    expect(screen.getByRole('heading', { name: 'Ageing, 25 Nov 2025' })).toBeVisible();
  });

  test('each bucket opens the client list filtered to it', async () => {
    agedDashboardApi();
    const { router } = renderApp('/dashboard');
    const table = await screen.findByRole('table', { name: 'Ageing' });
    expect(within(table).getByRole('link', { name: 'Not yet due' })).toHaveAttribute(
      'href',
      '/clients?balance=owing',
    );
    expect(within(table).getByRole('link', { name: 'Over 90 days' })).toHaveAttribute(
      'href',
      '/clients?overdue=90%2B',
    );
    // A bucket counts every client with an amount in it; its list, each client once: said.
    expect(
      screen.getByText(/the clients whose oldest overdue amount is in it/),
    ).toBeInTheDocument();
    await userEvent.click(within(table).getByRole('link', { name: '31–60 days' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/clients'));
    expect(router.state.location.search).toBe('?overdue=31-60');
    expect(await screen.findByLabelText('Overdue for')).toHaveValue('31-60');
  });

  test('the ageing downloads as a CSV and opens as a page to print, with its day', async () => {
    agedDashboardApi();
    const { router } = renderApp('/dashboard');
    const panel = await screen.findByRole('region', { name: /^Ageing/ });
    expect(within(panel).getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      '/api/ageing/export',
    );
    await userEvent.click(within(panel).getByRole('link', { name: 'Print' }));
    expect(await screen.findByRole('heading', { name: 'Ageing of what is owed' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/ageing/print');
    expect(screen.getByText('As of 25 Nov 2025')).toBeVisible();
    const table = screen.getByRole('table', { name: 'Ageing' });
    expect(within(table).queryByRole('link')).toBeNull();
    expect(
      within(table).getByRole('rowheader', { name: 'Over 90 days' }).closest('tr'),
    ).toHaveTextContent('₹3,000.00');
    const print = vi.spyOn(window, 'print').mockImplementation(() => {});
    await userEvent.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalled();
    print.mockRestore();
  });

  test('the ageing and the totals are read again when another tab records an entry', async () => {
    const { calls } = agedDashboardApi();
    renderApp('/dashboard');
    await screen.findByRole('table', { name: 'Ageing' });
    const reads = () => ({
      ageing: calls.filter((call) => call === 'GET /api/ageing').length,
      totals: calls.filter((call) => call === 'GET /api/totals').length,
    });
    const before = reads();
    const paid = { ...asha, balance: '0.00', version: 2 };
    const socket = await liveChannel();
    act(() =>
      socket.onmessage?.({
        data: JSON.stringify({
          type: 'entry.created',
          entry: {
            id: 'e1',
            clientId: 'a1',
            kind: 'payment',
            amount: '-100.00',
            balanceAfter: '0.00',
            note: '',
            on: '2025-11-25',
            dueOn: null,
            createdAt: '2025-11-25T10:00:00.000Z',
            createdBy: { id: 'u1', email: 'op@example.com' },
          },
          client: paid,
        }),
      }),
    );
    await waitFor(() => expect(reads().ageing).toBe(before.ageing + 1));
    expect(reads().totals).toBe(before.totals + 1);
    act(() =>
      socket.onmessage?.({
        data: JSON.stringify({ type: 'clients.imported', count: 3 }),
      }),
    );
    await waitFor(() => expect(reads().ageing).toBe(before.ageing + 2));
  });
});
