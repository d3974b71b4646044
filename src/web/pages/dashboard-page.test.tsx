import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  apiClient,
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
