import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Client } from '../../../shared/client-schema.ts';
import {
  apiClient,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const asha: Client = {
  ...apiClient('a1', 'Asha', 'Verma', '1500.00'),
  pendingClaims: 2,
  lastRemindedOn: '2026-03-01',
};
const ravi = apiClient('b2', 'Ravi', 'Kumar', '50.00');

function listApi(pendingClaims = 3) {
  mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({
        status: 200,
        body: { items: [asha, ravi], total: 2, totalOwed: '1550.00' },
      }),
      'GET /api/totals': () => ({
        status: 200,
        body: {
          clients: 2,
          totalOwed: '1550.00',
          owing: '1550.00',
          owingClients: 2,
          credit: '0.00',
          creditClients: 0,
          pendingClaims,
          overdue: '0.00',
          collectedThisMonth: '0.00',
          collectedLastMonth: '0.00',
          today: '2026-03-05',
        },
      }),
      'GET /api/totals/history': () => ({ status: 200, body: { points: [] } }),
      'GET /api/clients/a1': () => ({ status: 200, body: asha }),
      'GET /api/clients/a1/entries': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      'GET /api/clients/a1/claims': () => ({ status: 200, body: { items: [] } }),
      'GET /api/clients/a1/reminders': () => ({
        status: 200,
        body: {
          items: [
            {
              id: 'r1',
              channel: 'whatsapp',
              sentAt: '2026-03-01T10:00:00.000Z',
              message: 'Namaste Asha, ₹1,500.00 is due',
              by: { id: 'u1', email: 'op@example.com' },
            },
          ],
        },
      }),
    },
  });
  const fetchMock = globalThis.fetch as unknown as { mock: { calls: [RequestInfo][] } };
  return {
    /** The query strings the list was asked with. */
    listQueries: () =>
      fetchMock.mock.calls
        .map(([input]) => new URL(String(input), 'http://localhost'))
        .filter((url) => url.pathname === '/api/clients')
        .map((url) => url.searchParams),
  };
}

describe('reminders and reported payments in the list', () => {
  test('rows show when each client was last reminded and their reported payments; the column sorts', async () => {
    const { listQueries } = listApi();
    const { router } = renderApp('/clients');
    const table = await screen.findByRole('table', { name: 'Clients' });
    const ashaRow = within(table)
      .getByRole('checkbox', { name: 'Select Asha Verma' })
      .closest('tr') as HTMLElement;
    expect(within(ashaRow).getByText('1 Mar 2026')).toBeVisible();
    expect(within(ashaRow).getByText('2 reported payments')).toBeVisible();
    const raviRow = within(table)
      .getByRole('checkbox', { name: 'Select Ravi Kumar' })
      .closest('tr') as HTMLElement;
    expect(within(raviRow).getAllByText('never')).toHaveLength(2);
    expect(within(raviRow).queryByText(/reported/)).toBeNull();

    await userEvent.click(within(table).getByRole('button', { name: 'Last reminded' }));
    expect(router.state.location.search).toContain('sort=lastRemindedOn');
    await waitFor(() =>
      expect(listQueries().some((query) => query.get('sort') === 'lastRemindedOn')).toBe(true),
    );
  });

  test('"Not reminded in 7 days" asks the server for those clients who owe, and is kept in the URL', async () => {
    const { listQueries } = listApi();
    const { router } = renderApp('/clients');
    await screen.findByRole('table', { name: 'Clients' });
    const filter = screen.getByRole('button', { name: 'Not reminded in 7 days' });
    await userEvent.click(filter);
    expect(filter).toHaveAttribute('aria-pressed', 'true');
    expect(router.state.location.search).toContain('notRemindedFor=7');
    await waitFor(() =>
      expect(
        listQueries().some(
          (query) => query.get('notRemindedFor') === '7' && query.get('balance') === 'owing',
        ),
      ).toBe(true),
    );
    expect(listQueries()[0]?.get('notRemindedFor')).toBeNull();
  });

  test('the dashboard counts the payments clients reported', async () => {
    listApi(3);
    renderApp('/dashboard');
    expect(await screen.findByTestId('pending-claims')).toHaveTextContent(
      '3 payments reported by clients, to check',
    );
  });

  test("the client's page lists the reminders sent, beside the history", async () => {
    listApi();
    renderApp('/client/a1');
    const list = await screen.findByRole('list', { name: 'Reminders sent' });
    expect(within(list).getByText('Namaste Asha, ₹1,500.00 is due')).toBeVisible();
    expect(within(list).getByText(/WhatsApp · by op@example.com/)).toBeVisible();
  });
});
