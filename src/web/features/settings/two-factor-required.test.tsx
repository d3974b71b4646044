import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Totals } from '../../../shared/ledger-schema.ts';
import { TWO_FACTOR_SETUP_REQUIRED_MESSAGE } from '../../../shared/two-factor-schema.ts';
import {
  clientListAnswer,
  FakeWebSocket,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const operator = { user: { ...signedIn.user, role: 'operator' } };
const emptyTotals: Totals = {
  clients: 0,
  totalOwed: '0.00',
  owing: '0.00',
  owingClients: 0,
  credit: '0.00',
  creditClients: 0,
  pendingClaims: 0,
  overdue: '0.00',
  collectedThisMonth: '0.00',
  collectedLastMonth: '0.00',
  today: '2026-03-05',
};
const setup = {
  uri: 'otpauth://totp/Client%20Panel:op%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Client%20Panel',
  secret: 'JBSWY3DPEHPK3PXP',
  backupCodes: Array.from({ length: 10 }, (_, i) => `code${i}-abcde`),
};
const refused = { status: 403, body: { message: TWO_FACTOR_SETUP_REQUIRED_MESSAGE } };

/**
 * A server that requires two-factor sign-in of an operator whose own is off: the session says
 * so, and every call but the setup's is refused, until a code from the app turns it on.
 */
function requiredOfThisOperator({ required = true } = {}) {
  let on = !required;
  const guarded = (body: unknown) => () => (on ? { status: 200, body } : refused);
  return mockApi({
    session: () => (on ? operator : { ...operator, twoFactorSetupRequired: true }),
    routes: {
      'GET /api/clients': guarded(clientListAnswer().body),
      'GET /api/totals': guarded(emptyTotals),
      'GET /api/account/two-factor': () => ({
        status: 200,
        body: { enabled: on, backupCodesLeft: on ? 10 : 0 },
      }),
      'POST /api/account/two-factor/setup': () => ({ status: 200, body: setup }),
      'POST /api/account/two-factor/confirm': () => {
        on = true;
        return { status: 200, body: { enabled: true, backupCodesLeft: 10 } };
      },
      'POST /api/auth/sign-out': () => ({ status: 200, body: { success: true } }),
      'POST /api/auth/sign-in/email': () => ({
        status: 200,
        body: on ? operator : { ...operator, twoFactorSetupRequired: true },
      }),
    },
  });
}

async function setupScreen() {
  return screen.findByRole('heading', { name: 'Turn on two-factor sign-in', level: 1 });
}

describe('an operator who must turn on the two-factor sign-in the administrator requires', () => {
  test('is taken from the dashboard to its setup alone, and once a code turns it on, reaches the dashboard', async () => {
    const { calls } = requiredOfThisOperator();
    const { router } = renderApp('/dashboard');
    const heading = await setupScreen();
    expect(router.state.location.pathname).toBe('/settings');
    const main = heading.closest('main') as HTMLElement;
    expect(main).toHaveTextContent(TWO_FACTOR_SETUP_REQUIRED_MESSAGE);
    // Nothing else is offered: not the settings, not the account, not a page in the navbar.
    expect(
      within(main)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Turn on two-factor sign-in', 'Sign out']);
    expect(within(main).queryByRole('form')).toBeNull();
    const nav = screen.getByRole('navigation');
    expect(within(nav).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Settings' })).toBeNull();
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeVisible();
    // No call that the server would refuse.
    expect(calls.filter((call) => !/get-session|GET \/api\/settings$/.test(call))).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn on two-factor sign-in' });
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'my passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await userEvent.type(await within(dialog).findByLabelText('Code from the app'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Two-factor sign-in is on');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('No users found')).toBeVisible();
    expect(within(nav).getByRole('link', { name: 'Dashboard' })).toBeVisible();
    // Not even on the way there did the rest of the settings page show.
    expect(calls).not.toContain('GET /api/account/sessions');
    // The session was read again after the code, not assumed.
    expect(calls.filter((call) => call === 'GET /api/auth/get-session')).toHaveLength(2);
    expect(calls.indexOf('POST /api/account/two-factor/confirm')).toBeLessThan(
      calls.lastIndexOf('GET /api/auth/get-session'),
    );
  });

  test('gets no live channel while the setup is required, and one once it is on', async () => {
    requiredOfThisOperator();
    const { router } = renderApp('/clients');
    await setupScreen();
    expect(FakeWebSocket.latest).toBeUndefined();

    await userEvent.click(screen.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn on two-factor sign-in' });
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'my passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await userEvent.type(await within(dialog).findByLabelText('Code from the app'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(FakeWebSocket.latest).toBeInstanceOf(FakeWebSocket);
  });

  test('signing in with the password alone leads to the setup', async () => {
    const { calls } = mockApi({
      session: null,
      routes: {
        'POST /api/auth/sign-in/email': () => ({
          status: 200,
          body: { ...operator, twoFactorSetupRequired: true },
        }),
      },
    });
    const { router } = renderApp('/login');
    await userEvent.type(await screen.findByLabelText('Email'), 'op@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'my passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await setupScreen();
    expect(router.state.location.pathname).toBe('/settings');
    expect(calls).not.toContain('GET /api/clients');
    expect(FakeWebSocket.latest).toBeUndefined();
  });

  test('may sign out instead', async () => {
    requiredOfThisOperator();
    const { router } = renderApp('/settings');
    await setupScreen();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('status')).toHaveTextContent('Logged Out !!');
  });

  test('signed in before it was required, is taken to the setup by the first refused load', async () => {
    let required = false;
    mockApi({
      session: () => (required ? { ...operator, twoFactorSetupRequired: true } : operator),
      routes: {
        // The administrator switched the policy on while the page was open.
        'GET /api/clients': () => {
          required = true;
          return refused;
        },
        'GET /api/totals': () => refused,
      },
    });
    const { router } = renderApp('/dashboard');
    await setupScreen();
    expect(router.state.location.pathname).toBe('/settings');
  });

  test('signed in before it was required, is taken to the setup by a refused change too', async () => {
    let required = false;
    mockApi({
      session: () => (required ? { ...operator, twoFactorSetupRequired: true } : operator),
      routes: {
        'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
        'GET /api/account/two-factor': () => ({
          status: 200,
          body: { enabled: false, backupCodesLeft: 0 },
        }),
        'POST /api/account/email': () => {
          required = true;
          return refused;
        },
      },
    });
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Change e-mail address' });
    await userEvent.type(within(form).getByLabelText('New e-mail address'), 'new@example.com');
    await userEvent.type(within(form).getByLabelText('Current password'), 'my passphrase');
    await userEvent.click(within(form).getByRole('button', { name: 'Change e-mail address' }));
    await setupScreen();
    expect(screen.queryByRole('form', { name: 'Change e-mail address' })).toBeNull();
  });
});
