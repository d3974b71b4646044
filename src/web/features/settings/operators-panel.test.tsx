import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import type { OperatorListItem } from '../../../shared/operator-list-schema.ts';
import type { ResetLink } from '../../../shared/password-reset-schema.ts';
import {
  englishFieldMessage,
  mockApi,
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

/** Settings for an administrator; `disable` answers the turn-off and records each body sent. */
function answers(
  operators: () => OperatorListItem[],
  disable: (body: { currentPassword?: string }) => { status: number; body?: unknown },
) {
  const sent: unknown[] = [];
  const api = mockApi({
    session: signedIn,
    routes: {
      'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor: false } }),
      'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
      'GET /api/account/two-factor': () => ({
        status: 200,
        body: { enabled: true, backupCodesLeft: 10 },
      }),
      'GET /api/operators': () => ({ status: 200, body: { items: operators() } }),
      'POST /api/operators/u2/two-factor/disable': (init) => {
        const body = JSON.parse(String(init?.body));
        sent.push(body);
        return disable(body);
      },
    },
  });
  return { ...api, sent };
}

const wrongPassword = {
  status: 400,
  body: {
    message: englishFieldMessage('wrong-current-password'),
    fieldErrors: { currentPassword: englishFieldMessage('wrong-current-password') },
  },
};

async function operatorsTable() {
  const table = await screen.findByRole('table', { name: 'Operators' });
  const row = (email: string) =>
    within(table)
      .getAllByRole('row')
      .find((r) => r.textContent?.includes(email)) as HTMLElement;
  return { table, row };
}

async function openTurnOff(table: HTMLElement) {
  await userEvent.click(
    within(table).getByRole('button', {
      name: 'Turn off two-factor sign-in for helper@example.com',
    }),
  );
  return screen.findByRole('dialog', {
    name: 'Turn off two-factor sign-in for helper@example.com?',
  });
}

describe("two-factor sign-in in the administrator's list of operators", () => {
  test("shows who has it on, and turns it off for an operator with the administrator's own password", async () => {
    let operators = [administrator, helper, { ...other, twoFactorEnabled: false }];
    const { calls, sent } = answers(
      () => operators,
      ({ currentPassword }) => {
        if (currentPassword !== 'my passphrase') return wrongPassword;
        operators = operators.map((o) => (o.id === 'u2' ? { ...o, twoFactorEnabled: false } : o));
        return { status: 200, body: operators[1] };
      },
    );
    renderApp('/settings');
    const { table, row } = await operatorsTable();
    expect(within(row('op@example.com')).getByText('Two-factor')).toBeVisible();
    expect(within(row('helper@example.com')).getByText('Two-factor')).toBeVisible();
    expect(within(row('other@example.com')).queryByText('Two-factor')).toBeNull();
    // Only for those who have it on, and never one's own: that is done with the password.
    expect(within(table).getAllByRole('button', { name: /^Turn off two-factor/ })).toHaveLength(1);

    const dialog = await openTurnOff(table);
    expect(dialog).toHaveTextContent('lost both the phone');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).not.toContain('POST /api/operators/u2/two-factor/disable');

    const again = await openTurnOff(table);
    const field = within(again).getByLabelText('Your password');
    expect(field).toHaveAttribute('type', 'password');
    expect(field).toHaveAttribute('autocomplete', 'current-password');
    // Whose password it is, for password managers: the administrator's, not the operator's.
    expect(again.querySelector('input[autocomplete="username"]')).toHaveValue('op@example.com');
    // Nothing is sent without it.
    await userEvent.click(within(again).getByRole('button', { name: 'Turn off two-factor' }));
    expect(await within(again).findByText('Enter your current password')).toBeVisible();
    expect(calls).not.toContain('POST /api/operators/u2/two-factor/disable');

    // A wrong one is said under the field, the dialog stays open, and nothing changes.
    await userEvent.type(field, 'not my password');
    await userEvent.click(within(again).getByRole('button', { name: 'Turn off two-factor' }));
    await waitFor(() =>
      expect(field).toHaveAccessibleDescription(englishFieldMessage('wrong-current-password')),
    );
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(again).toBeVisible();
    expect(within(row('helper@example.com')).getByText('Two-factor')).toBeVisible();

    await userEvent.clear(field);
    await userEvent.type(field, 'my passphrase');
    await userEvent.click(within(again).getByRole('button', { name: 'Turn off two-factor' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Two-factor sign-in is off for helper@example.com',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([
      { currentPassword: 'not my password' },
      { currentPassword: 'my passphrase' },
    ]);
    await waitFor(() =>
      expect(within(row('helper@example.com')).queryByText('Two-factor')).toBeNull(),
    );
    expect(within(table).queryByRole('button', { name: /^Turn off two-factor/ })).toBeNull();
    // The button that opened the dialog is gone, and nothing took its place: the heading of the
    // list has the focus, not the page's start.
    expect(screen.getByRole('heading', { name: 'Operators' })).toHaveFocus();
  });

  // As the server refuses: with the code whose text the dialog shows.
  test.each([
    [429, 'rate-limited', 'Too many attempts. Please wait and try again.'],
    [404, 'operator-not-found', 'Operator not found'],
  ])(
    'a refusal (%i) is said in the dialog, which stays open, and the list stays as it was',
    async (status, code, message) => {
      answers(
        () => [administrator, helper],
        () => ({ status, body: { message, code } }),
      );
      renderApp('/settings');
      const { table, row } = await operatorsTable();
      const dialog = await openTurnOff(table);
      const field = within(dialog).getByLabelText('Your password');
      await userEvent.type(field, 'my passphrase');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off two-factor' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
      expect(field).toHaveAttribute('aria-invalid', 'false');
      expect(dialog).toBeVisible();
      expect(screen.queryByText(/Two-factor sign-in is off/)).toBeNull();
      expect(within(row('helper@example.com')).getByText('Two-factor')).toBeVisible();
      await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(
        within(table).getByRole('button', {
          name: 'Turn off two-factor sign-in for helper@example.com',
        }),
      ).toBeVisible();
    },
  );
});

describe('deactivating and reactivating an operator', () => {
  test("the button that takes the place of the one used has the focus: the row's Reactivate, then its Deactivate", async () => {
    let operators = [administrator, helper];
    const set = (deactivatedAt: string | null) => {
      operators = operators.map((o) => (o.id === 'u2' ? { ...o, deactivatedAt } : o));
      return operators[1];
    };
    mockApi({
      session: signedIn,
      routes: {
        'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor: false } }),
        'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
        'GET /api/account/two-factor': () => ({
          status: 200,
          body: { enabled: true, backupCodesLeft: 10 },
        }),
        'GET /api/operators': () => ({ status: 200, body: { items: operators } }),
        'POST /api/operators/u2/deactivate': () => ({
          status: 200,
          body: { ...set('2026-03-05T06:00:00.000Z'), revoked: 1 },
        }),
        'POST /api/operators/u2/reactivate': () => ({ status: 200, body: set(null) }),
      },
    });
    renderApp('/settings');
    const { table } = await operatorsTable();
    await userEvent.click(
      within(table).getByRole('button', { name: 'Deactivate helper@example.com' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate helper@example.com?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'helper@example.com is deactivated and signed out',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(
      within(table).queryByRole('button', { name: 'Deactivate helper@example.com' }),
    ).toBeNull();
    expect(
      within(table).getByRole('button', { name: 'Reactivate helper@example.com' }),
    ).toHaveFocus();

    await userEvent.keyboard('{Enter}');
    await waitFor(() =>
      expect(
        within(table).getByRole('button', { name: 'Deactivate helper@example.com' }),
      ).toHaveFocus(),
    );
    expect(
      within(table).queryByRole('button', { name: 'Reactivate helper@example.com' }),
    ).toBeNull();
  });
});

describe("the administrator's reset-link dialog", () => {
  /** Escape and a click on the backdrop (the dialog's own element, around its content). */
  async function tryToDismiss(dialog: HTMLElement) {
    await userEvent.keyboard('{Escape}');
    await userEvent.click(dialog);
    // A dialog told to close loses its `show` at once and is gone a few milliseconds later.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  function expectOpen(dialog: HTMLElement) {
    expect(dialog).toBeInTheDocument();
    expect(dialog).toHaveClass('show');
    expect(screen.getByRole('dialog', { name: 'Password reset link for helper@example.com' })).toBe(
      dialog,
    );
  }

  test('neither Escape nor a backdrop click closes it while the link is issued or shown: only its buttons do', async () => {
    let link: ResetLink | null = null;
    const { calls } = mockApi({
      session: signedIn,
      routes: {
        'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor: false } }),
        'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
        'GET /api/account/two-factor': () => ({
          status: 200,
          body: { enabled: true, backupCodesLeft: 10 },
        }),
        'GET /api/operators': () => ({ status: 200, body: { items: [administrator, helper] } }),
        'POST /api/operators/u2/reset-link': () => ({ status: 200, body: link }),
      },
    });
    // The link's request stays in flight until the test hands out `link`.
    let answer = (_: ResetLink) => {};
    const answered = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).endsWith('/reset-link')) {
        link = await new Promise<ResetLink>((resolve) => {
          answer = resolve;
        });
      }
      return answered(input, init);
    });
    renderApp('/settings');
    const { table } = await operatorsTable();
    const open = async () => {
      await userEvent.click(
        within(table).getByRole('button', { name: 'Password reset link for helper@example.com' }),
      );
      return screen.findByRole('dialog', { name: 'Password reset link for helper@example.com' });
    };

    // Before anything is issued, Escape closes it like any dialog (so the checks below would
    // see it close).
    await open();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // While the link is being issued: nothing closes it, and it offers no button that would.
    const dialog = await open();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Issue link' }));
    expect(within(dialog).getByRole('button', { name: 'Issue link' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    await tryToDismiss(dialog);
    expectOpen(dialog);

    // Shown once: still neither Escape nor the backdrop; Done does.
    answer({ url: 'http://localhost/reset-password#token=abc', expiresAt: '2030-01-01T10:00:00Z' });
    const field = await within(dialog).findByLabelText('Reset link for helper@example.com');
    expect(field).toHaveValue('http://localhost/reset-password#token=abc');
    expect(calls).toContain('POST /api/operators/u2/reset-link');
    await tryToDismiss(dialog);
    expectOpen(dialog);
    expect(within(dialog).getByLabelText('Reset link for helper@example.com')).toBe(field);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // The close button in its corner closes it too, and the link, shown once, is gone.
    const again = await open();
    await userEvent.click(within(again).getByRole('button', { name: 'Issue link' }));
    answer({ url: 'http://localhost/reset-password#token=def', expiresAt: '2030-01-01T10:00:00Z' });
    await within(again).findByLabelText('Reset link for helper@example.com');
    await userEvent.click(within(again).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await open();
    expect(screen.queryByLabelText('Reset link for helper@example.com')).toBeNull();
  });
});
