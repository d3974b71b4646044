import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Client } from '../../../shared/client-schema.ts';
import {
  type ApiRoutes,
  apiClient,
  liveChannel,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const asha = apiClient('a1', 'Asha', 'Verma', '100.00');
const ravi = apiClient('b2', 'Ravi', 'Kumar', '50.00');
const meera = apiClient('c3', 'Meera', 'Pillai', '-20.00');

/** The list API over a set of clients that deletes and restores take from and give back. */
function listApi(extra: ApiRoutes = {}) {
  let shown = [asha, ravi, meera];
  /** A change made in another tab: the list the server now answers. */
  const showElsewhere = (clients: Client[]) => {
    shown = clients;
  };
  const sent: { path: string; body: unknown }[] = [];
  const api = mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({
        status: 200,
        body: { items: shown, total: shown.length, totalOwed: '0.00' },
      }),
      'POST /api/clients/delete': (init) => {
        const { ids } = JSON.parse(String(init?.body)) as { ids: string[] };
        sent.push({ path: 'delete', body: { ids } });
        shown = shown.filter((c) => !ids.includes(c.id));
        return { status: 200, body: { deleted: ids } };
      },
      'POST /api/clients/restore': (init) => {
        const { ids } = JSON.parse(String(init?.body)) as { ids: string[] };
        sent.push({ path: 'restore', body: { ids } });
        const back = [asha, ravi, meera].filter((c) => ids.includes(c.id));
        shown = [asha, ravi, meera].filter((c) => shown.includes(c) || ids.includes(c.id));
        return { status: 200, body: { restored: back } };
      },
      ...extra,
    },
  });
  return { ...api, sent, showElsewhere };
}

const box = (name: string) => screen.getByRole('checkbox', { name });

describe('picking rows to act on together', () => {
  test('rows are picked one by one or all on the page, and the picks are exported by id', async () => {
    listApi();
    renderApp('/clients');
    await screen.findByRole('checkbox', { name: 'Select Asha Verma' });
    const all = box('Select all on this page');
    expect(screen.queryByText(/selected$/)).toBeNull();

    await userEvent.click(box('Select Asha Verma'));
    expect(all).toBePartiallyChecked();
    const group = screen.getByRole('group', { name: 'Selected clients' });
    expect(within(group).getByText('1 selected')).toBeVisible();

    await userEvent.click(all);
    expect(all).toBeChecked();
    expect(box('Select Meera Pillai')).toBeChecked();
    expect(within(group).getByText('3 selected')).toBeVisible();
    const link = within(group).getByRole('link', { name: 'Export selected' });
    expect(link).toHaveAttribute('download');
    const url = new URL(link.getAttribute('href') ?? '', 'http://localhost');
    expect(url.pathname).toBe('/api/clients/export');
    expect(url.searchParams.get('ids')).toBe('a1,b2,c3');
    expect(url.searchParams.get('sort')).toBe('lname');

    await userEvent.click(all);
    expect(all).not.toBeChecked();
    expect(box('Select Asha Verma')).not.toBeChecked();
    expect(screen.queryByRole('group', { name: 'Selected clients' })).toBeNull();
  });

  test('another sort starts with nothing picked', async () => {
    listApi();
    const { router } = renderApp('/clients');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Ravi Kumar' }));
    expect(screen.getByText('1 selected')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Balance' }));
    expect(router.state.location.search).toContain('sort=balance');
    await waitFor(() => expect(box('Select Ravi Kumar')).not.toBeChecked());
    expect(screen.queryByText('1 selected')).toBeNull();
  });

  test('a row deleted in another tab leaves the selection, and is not picked when it comes back', async () => {
    const { showElsewhere } = listApi();
    renderApp('/clients');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Asha Verma' }));
    await userEvent.click(box('Select Ravi Kumar'));
    expect(screen.getByText('2 selected')).toBeVisible();

    const socket = await liveChannel();
    const live = (event: unknown) => act(() => socket.onmessage?.({ data: JSON.stringify(event) }));
    showElsewhere([asha, meera]);
    live({ type: 'client.deleted', id: ravi.id });
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: /Ravi/ })).toBeNull());
    expect(screen.getByText('1 selected')).toBeVisible();

    showElsewhere([asha, ravi, meera]);
    live({ type: 'client.created', client: ravi });
    expect(await screen.findByRole('checkbox', { name: 'Select Ravi Kumar' })).not.toBeChecked();
    expect(screen.getByText('1 selected')).toBeVisible();
    expect(box('Select all on this page')).toBePartiallyChecked();
  });

  test('bulk delete is one request after "Are you sure ?", and its Undo is one restore', async () => {
    const { sent } = listApi();
    renderApp('/clients');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Asha Verma' }));
    await userEvent.click(box('Select Meera Pillai'));
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));

    const dialog = await screen.findByRole('dialog', { name: 'Are you sure ?' });
    expect(dialog).toHaveTextContent(
      '2 clients will be removed with their balances: Asha Verma, Meera Pillai.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));

    const deleted = await screen.findByText('2 clients deleted');
    await waitFor(() => expect(screen.queryByRole('checkbox', { name: /Asha/ })).toBeNull());
    expect(screen.queryByRole('checkbox', { name: /Meera/ })).toBeNull();
    expect(screen.queryByText(/selected$/)).toBeNull();
    expect(sent).toEqual([{ path: 'delete', body: { ids: ['a1', 'c3'] } }]);

    await userEvent.click(within(deleted).getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('2 clients restored')).toBeVisible();
    expect(sent).toEqual([
      { path: 'delete', body: { ids: ['a1', 'c3'] } },
      { path: 'restore', body: { ids: ['a1', 'c3'] } },
    ]);
    expect(await screen.findByRole('checkbox', { name: 'Select Asha Verma' })).not.toBeChecked();
  });

  test('a refused bulk delete is shown in red and the rows stay picked', async () => {
    listApi({
      'POST /api/clients/delete': () => ({
        status: 400,
        // What the server answers when the body breaks its schema.
        body: {
          message: 'Some fields are not valid',
          code: 'validation',
          fieldErrors: { ids: 'At most 500 clients at a time' },
          fieldCodes: { ids: 'ids.too-many' },
        },
      }),
    });
    renderApp('/clients');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select Ravi Kumar' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure ?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(screen.getByRole('alert')).findByText(
        'The clients were not deleted: Some fields are not valid',
      ),
    ).toBeVisible();
    expect(box('Select Ravi Kumar')).toBeChecked();
  });

  test('clients too late to restore are said so, beside those that came back', async () => {
    listApi({
      'POST /api/clients/restore': () => ({ status: 200, body: { restored: [ravi] } }),
    });
    renderApp('/clients');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select all on this page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Are you sure ?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByText('3 clients deleted')).getByRole('button', { name: 'Undo' }),
    );
    expect(await screen.findByText('1 client restored')).toBeVisible();
    expect(
      within(screen.getByRole('alert')).getByText(
        '2 clients could not be restored: deleted clients are kept for 10 minutes',
      ),
    ).toBeVisible();
  });
});
