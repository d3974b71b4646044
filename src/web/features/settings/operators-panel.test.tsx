import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { OperatorListItem } from '../../../shared/operator-list-schema.ts';
import {
  mockApi,
  openSettings,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const administrator: OperatorListItem = {
  ...signedIn.user,
  role: 'admin',
  deactivatedAt: null,
  twoFactorEnabled: true,
};
const helper: OperatorListItem = {
  id: 'u2',
  email: 'helper@example.com',
  role: 'operator',
  deactivatedAt: null,
  twoFactorEnabled: true,
};
const other: OperatorListItem = { ...helper, id: 'u3', email: 'other@example.com' };

describe("two-factor sign-in in the administrator's list of operators", () => {
  test('shows who has it on, and turns it off for an operator after asking', async () => {
    let operators = [administrator, helper, { ...other, twoFactorEnabled: false }];
    const { calls } = mockApi({
      'GET /api/auth/get-session': () => ({ status: 200, body: signedIn }),
      'GET /api/settings': () => ({ status: 200, body: openSettings }),
      'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor: false } }),
      'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
      'GET /api/account/two-factor': () => ({
        status: 200,
        body: { enabled: true, backupCodesLeft: 10 },
      }),
      'GET /api/operators': () => ({ status: 200, body: { items: operators } }),
      'POST /api/operators/u2/two-factor/disable': () => {
        operators = operators.map((o) => (o.id === 'u2' ? { ...o, twoFactorEnabled: false } : o));
        return { status: 200, body: operators[1] };
      },
    });
    renderApp('/settings');
    const table = await screen.findByRole('table', { name: 'Operators' });
    const row = (email: string) =>
      within(table)
        .getAllByRole('row')
        .find((r) => r.textContent?.includes(email)) as HTMLElement;
    expect(within(row('op@example.com')).getByText('Two-factor')).toBeVisible();
    expect(within(row('helper@example.com')).getByText('Two-factor')).toBeVisible();
    expect(within(row('other@example.com')).queryByText('Two-factor')).toBeNull();
    // Only for those who have it on, and never one's own: that is done with the password.
    expect(within(table).getAllByRole('button', { name: /^Turn off two-factor/ })).toHaveLength(1);

    await userEvent.click(
      within(table).getByRole('button', {
        name: 'Turn off two-factor sign-in for helper@example.com',
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Turn off two-factor sign-in for helper@example.com?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).not.toContain('POST /api/operators/u2/two-factor/disable');

    await userEvent.click(
      within(table).getByRole('button', {
        name: 'Turn off two-factor sign-in for helper@example.com',
      }),
    );
    const again = await screen.findByRole('dialog', {
      name: 'Turn off two-factor sign-in for helper@example.com?',
    });
    await userEvent.click(within(again).getByRole('button', { name: 'Turn off two-factor' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Two-factor sign-in is off for helper@example.com',
    );
    await waitFor(() =>
      expect(within(row('helper@example.com')).queryByText('Two-factor')).toBeNull(),
    );
    expect(within(table).queryByRole('button', { name: /^Turn off two-factor/ })).toBeNull();
  });

  test('a refusal is said, and the list stays as it was', async () => {
    mockApi({
      'GET /api/auth/get-session': () => ({ status: 200, body: signedIn }),
      'GET /api/settings': () => ({ status: 200, body: openSettings }),
      'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor: false } }),
      'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
      'GET /api/account/two-factor': () => ({
        status: 200,
        body: { enabled: false, backupCodesLeft: 0 },
      }),
      'GET /api/operators': () => ({ status: 200, body: { items: [administrator, helper] } }),
      'POST /api/operators/u2/two-factor/disable': () => ({
        status: 404,
        body: { message: 'No such operator' },
      }),
    });
    renderApp('/settings');
    const table = await screen.findByRole('table', { name: 'Operators' });
    await userEvent.click(
      within(table).getByRole('button', {
        name: 'Turn off two-factor sign-in for helper@example.com',
      }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Turn off two-factor sign-in for helper@example.com?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off two-factor' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Two-factor sign-in was not turned off for helper@example.com: No such operator',
    );
    expect(
      within(table).getByRole('button', {
        name: 'Turn off two-factor sign-in for helper@example.com',
      }),
    ).toBeVisible();
  });
});
