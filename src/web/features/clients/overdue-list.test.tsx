import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import type { Client, ClientList } from '../../../shared/client-schema.ts';
import {
  apiClient,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';
import { viewFromParams } from './list-view.ts';

stubLiveSocketInEachTest();

const asha: Client = {
  ...apiClient('a1', 'Asha', 'Verma', '3500.00'),
  overdue: '3000.00',
  overdueSince: '2025-09-12',
};
const ravi = apiClient('b2', 'Ravi', 'Kumar', '50.00');

const totals = {
  clients: 2,
  totalOwed: '3550.00',
  owing: '3550.00',
  owingClients: 2,
  credit: '0.00',
  creditClients: 0,
  pendingClaims: 0,
  overdue: '3000.00',
  collectedThisMonth: '0.00',
  collectedLastMonth: '0.00',
  // The panel's day, not the browser's: the days overdue count to it.
  today: '2025-11-25',
};

/** The clients page's API; each list request's query is kept, to see what was asked. */
function listApi(list: ClientList = { items: [asha, ravi], total: 2, totalOwed: '3550.00' }) {
  mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({ status: 200, body: list }),
      'GET /api/totals': () => ({ status: 200, body: totals }),
    },
  });
  const asked: URLSearchParams[] = [];
  const answer = globalThis.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    // Not the one-row read of the panel's own total beside a filtered list.
    if (url.pathname === '/api/clients' && url.searchParams.get('limit') !== '1') {
      asked.push(url.searchParams);
    }
    return answer(input, init);
  });
  return { asked };
}

describe('what is overdue, on the client list', () => {
  test('each client shows the amount overdue and for how many days, or a dash', async () => {
    listApi();
    renderApp('/clients');
    const table = await screen.findByRole('table', { name: 'Clients' });
    const header = within(table).getByRole('columnheader', { name: 'Overdue' });
    const column = within(header.closest('tr') as HTMLElement)
      .getAllByRole('columnheader')
      .indexOf(header);
    const cell = (name: string) => {
      const row = within(table).getByRole('link', { name }).closest('tr') as HTMLElement;
      return within(row).getAllByRole('cell')[column] as HTMLElement;
    };
    await waitFor(() => expect(cell('Asha')).toHaveTextContent('₹3,000.00 · 74 days'));
    expect(cell('Ravi')).toHaveTextContent('—');
  });

  test('the Overdue column sorts the list by what is overdue, in the URL and the request', async () => {
    const { asked } = listApi();
    const { router } = renderApp('/clients');
    const table = await screen.findByRole('table', { name: 'Clients' });
    await userEvent.click(within(table).getByRole('button', { name: /^Overdue/ }));
    await waitFor(() => expect(asked.at(-1)?.get('sort')).toBe('overdue'));
    expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('overdue');
    expect(within(table).getByRole('columnheader', { name: /^Overdue/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await userEvent.click(within(table).getByRole('button', { name: /^Overdue/ }));
    await waitFor(() => expect(asked.at(-1)?.get('dir')).toBe('desc'));
  });

  test('on a phone, which has no table headers, "Sort by" and its order sort the list, in the URL and the request', async () => {
    const { asked } = listApi();
    const { router } = renderApp('/clients');
    await screen.findByRole('table', { name: 'Clients' });
    const sortBy = screen.getByLabelText('Sort by');
    expect(sortBy).toHaveValue('lname');
    await userEvent.selectOptions(sortBy, 'Overdue');
    await waitFor(() => expect(asked.at(-1)?.get('sort')).toBe('overdue'));
    await userEvent.selectOptions(screen.getByLabelText('Order'), 'Z to A, highest, latest first');
    await waitFor(() => expect(asked.at(-1)?.get('dir')).toBe('desc'));
    const search = new URLSearchParams(router.state.location.search);
    expect([search.get('sort'), search.get('dir')]).toEqual(['overdue', 'desc']);
    // The table's header says the same.
    expect(screen.getByRole('columnheader', { name: /^Overdue/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  test('the overdue and promise filters are read from the URL and sent to the server', async () => {
    const { asked } = listApi();
    renderApp('/clients?overdue=31-60&promise=broken');
    await screen.findByRole('table', { name: 'Clients' });
    expect(screen.getByLabelText('Overdue for')).toHaveValue('31-60');
    expect(screen.getByLabelText('Promise to pay')).toHaveValue('broken');
    expect(asked.at(-1)?.get('overdue')).toBe('31-60');
    expect(asked.at(-1)?.get('promise')).toBe('broken');
  });

  test('picking an overdue or promise filter puts it in the URL; the first choice takes it out', async () => {
    const { asked } = listApi();
    const { router } = renderApp('/clients');
    await screen.findByRole('table', { name: 'Clients' });
    const overdue = screen.getByLabelText('Overdue for');
    expect(
      within(overdue)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Overdue or not',
      'Overdue',
      'Overdue 1–30 days',
      'Overdue 31–60 days',
      'Overdue 61–90 days',
      'Overdue over 90 days',
    ]);
    await userEvent.selectOptions(overdue, 'Overdue over 90 days');
    await waitFor(() => expect(asked.at(-1)?.get('overdue')).toBe('90+'));
    expect(new URLSearchParams(router.state.location.search).get('overdue')).toBe('90+');

    await userEvent.selectOptions(screen.getByLabelText('Promise to pay'), 'Promise due');
    await waitFor(() => expect(asked.at(-1)?.get('promise')).toBe('due'));
    expect(new URLSearchParams(router.state.location.search).get('promise')).toBe('due');

    await userEvent.selectOptions(screen.getByLabelText('Overdue for'), 'Overdue or not');
    await waitFor(() => expect(asked.at(-1)?.has('overdue')).toBe(false));
    expect(new URLSearchParams(router.state.location.search).has('overdue')).toBe(false);
  });

  test('an overdue filter with no clients in it says so', async () => {
    listApi({ items: [], total: 0, totalOwed: '0.00' });
    renderApp('/clients?overdue=61-90');
    expect(await screen.findByText('No clients are overdue 61–90 days')).toBeVisible();
  });

  test('an empty list under two or more filters blames none of them', async () => {
    listApi({ items: [], total: 0, totalOwed: '0.00' });
    renderApp('/clients?balance=owing&notRemindedFor=7&promise=due');
    expect(await screen.findByText('No clients match all of these filters')).toBeVisible();
    expect(screen.queryByText(/Every client was reminded/)).toBeNull();
  });

  test('an overdue or promise filter the list does not know is left out', () => {
    const view = viewFromParams(new URLSearchParams('overdue=7&promise=kept'));
    expect(view.overdue).toBeUndefined();
    expect(view.promise).toBeUndefined();
    expect(viewFromParams(new URLSearchParams('overdue=any')).overdue).toBe('any');
  });
});
