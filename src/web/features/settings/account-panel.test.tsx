import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { AccountSession } from '../../../shared/account-schema.ts';
import { changeLanguage } from '../../i18n/language.ts';
import {
  type ApiRoutes,
  englishFieldMessage,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const operator = { user: { ...signedIn.user, role: 'operator' } };
const twoFactorOff = { enabled: false, backupCodesLeft: 0 };

const thisBrowser: AccountSession = {
  id: 'session-here',
  current: true,
  device: 'Chrome on Linux',
  ipAddress: '203.0.113.7',
  createdAt: '2026-03-05T04:30:00.000Z',
  lastActiveAt: '2026-03-05T06:00:00.000Z',
  expiresAt: '2026-03-05T06:30:00.000Z',
};
const phone: AccountSession = {
  ...thisBrowser,
  id: 'session-phone',
  current: false,
  device: 'Safari on iOS',
  ipAddress: '198.51.100.20',
  createdAt: '2026-03-05T05:00:00.000Z',
};

function answers(extra: ApiRoutes) {
  return mockApi({
    session: operator,
    routes: {
      'GET /api/account/sessions': () => ({ status: 200, body: { items: [phone, thisBrowser] } }),
      'GET /api/account/two-factor': () => ({ status: 200, body: twoFactorOff }),
      ...extra,
    },
  });
}

describe('the account section of the settings page', () => {
  test('a new e-mail address is sent with the current password and shows in the navbar at once', async () => {
    let sent: unknown;
    answers({
      'POST /api/account/email': (init) => {
        sent = JSON.parse(String(init?.body));
        return { status: 200, body: { user: { ...operator.user, email: 'new@example.com' } } };
      },
    });
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Change e-mail address' });
    await userEvent.type(within(form).getByLabelText('New e-mail address'), 'new@example.com');
    await userEvent.type(within(form).getByLabelText('Current password'), 'my old passphrase');
    await userEvent.click(within(form).getByRole('button', { name: 'Change e-mail address' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Your e-mail address is now new@example.com',
    );
    expect(sent).toEqual({ email: 'new@example.com', currentPassword: 'my old passphrase' });
    expect(screen.getByTestId('navbar-email')).toHaveTextContent('new@example.com');
    expect(within(form).getByText('new@example.com')).toBeVisible();
  });

  test("the server's refusal shows under the field it is about", async () => {
    answers({
      'POST /api/account/password': () => ({
        status: 400,
        body: {
          message: englishFieldMessage('wrong-current-password'),
          fieldErrors: { currentPassword: englishFieldMessage('wrong-current-password') },
        },
      }),
    });
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Change password' });
    await userEvent.type(within(form).getByLabelText('Current password'), 'not my password');
    await userEvent.type(within(form).getByLabelText('New password'), 'a brand new passphrase');
    await userEvent.type(
      within(form).getByLabelText('Repeat the new password'),
      'a brand new passphrase',
    );
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    const field = within(form).getByLabelText('Current password');
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(englishFieldMessage('wrong-current-password'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The password was not changed');
  });

  test('the new password must follow the rules and be typed twice alike before anything is sent', async () => {
    const { calls } = answers({});
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'Change password' });
    await userEvent.type(within(form).getByLabelText('Current password'), 'my old passphrase');
    await userEvent.type(within(form).getByLabelText('New password'), 'short');
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('Password must be at least 8 characters')).toBeVisible();
    await userEvent.clear(within(form).getByLabelText('New password'));
    await userEvent.type(within(form).getByLabelText('New password'), 'a brand new passphrase');
    await userEvent.type(within(form).getByLabelText('Repeat the new password'), 'another one');
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText('The two passwords differ')).toBeVisible();
    expect(calls.filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  test('"Sign out everywhere" asks first, then ends the session and goes to the sign-in page', async () => {
    let signedOut = false;
    const { calls } = mockApi({
      session: () => (signedOut ? null : operator),
      routes: {
        'GET /api/account/sessions': () => ({ status: 200, body: { items: [thisBrowser] } }),
        'GET /api/account/two-factor': () => ({ status: 200, body: twoFactorOff }),
        'POST /api/account/sign-out-everywhere': () => {
          signedOut = true;
          return { status: 200, body: { revoked: 3 } };
        },
      },
    });
    const { router } = renderApp('/settings');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls).not.toContain('POST /api/account/sign-out-everywhere');

    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const again = await screen.findByRole('dialog', { name: 'Sign out everywhere?' });
    await userEvent.click(within(again).getByRole('button', { name: 'Sign out everywhere' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'You are signed out everywhere: 3 sessions ended',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.queryByTestId('navbar-email')).toBeNull();
  });
});

describe('the signed-in sessions of the account section', () => {
  test('lists the sessions with this device marked; ending another asks for the password, then the list is read again', async () => {
    let sent: unknown;
    let ended = false;
    const { calls } = answers({
      'GET /api/account/sessions': () => ({
        status: 200,
        body: { items: ended ? [thisBrowser] : [phone, thisBrowser] },
      }),
      'POST /api/account/sessions/end': (init) => {
        sent = JSON.parse(String(init?.body));
        ended = true;
        return { status: 200, body: { revoked: 1, signedOut: false } };
      },
    });
    renderApp('/settings');
    const table = await screen.findByRole('table', { name: 'Signed-in sessions' });
    const [, phoneRow, hereRow] = within(table).getAllByRole('row');
    expect(phoneRow).toHaveTextContent('Safari on iOS');
    expect(phoneRow).toHaveTextContent('198.51.100.20');
    expect(phoneRow).not.toHaveTextContent('This device');
    expect(hereRow).toHaveTextContent('Chrome on Linux');
    expect(hereRow).toHaveTextContent('This device');

    await userEvent.click(
      within(phoneRow as HTMLElement).getByRole('button', {
        name: /^End the session of Safari on iOS/,
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'End this session?' });
    expect(dialog).toHaveTextContent('Safari on iOS at 198.51.100.20');
    // Nothing is sent without the password.
    await userEvent.click(within(dialog).getByRole('button', { name: 'End session' }));
    expect(await within(dialog).findByText('Enter your current password')).toBeVisible();
    expect(calls).not.toContain('POST /api/account/sessions/end');

    await userEvent.type(within(dialog).getByLabelText('Current password'), 'my passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'End session' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The session ended');
    expect(sent).toEqual({ currentPassword: 'my passphrase', sessionIds: ['session-phone'] });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The row's "End" that opened the dialog is gone: the section's heading has the focus, not
    // the page's start.
    expect(screen.getByRole('heading', { name: 'Signed-in sessions' })).toHaveFocus();
    await waitFor(() => expect(within(table).queryByText('Safari on iOS')).toBeNull());
    expect(screen.getByRole('button', { name: 'End all other sessions' })).toBeDisabled();
  });

  test('in Hindi: the devices in Hindi word order, and times of day in Hindi words', async () => {
    answers({
      'GET /api/account/sessions': () => ({
        status: 200,
        body: {
          items: [
            thisBrowser,
            { ...phone, device: 'A browser on Android' },
            { ...phone, id: 'session-old', device: 'Unknown device' },
            { ...phone, id: 'session-tool', device: 'curl/8.5.0' },
          ],
        },
      }),
    });
    await changeLanguage('hi');
    renderApp('/settings');
    const table = await screen.findByRole('table', { name: 'चालू सत्र' });
    const [, here, android, unknown, tool] = within(table).getAllByRole('row');
    expect(here).toHaveTextContent('Linux पर Chrome');
    expect(android).toHaveTextContent('Android पर कोई ब्राउज़र');
    expect(unknown).toHaveTextContent('अनजाना डिवाइस');
    expect(tool).toHaveTextContent('curl/8.5.0');
    // The time of day in Hindi words ("सुबह 10:00"), not CLDR's Latin "10:00 am".
    expect(here).toHaveTextContent(/2026 को (सुबह|दोपहर|शाम|रात) \d{1,2}:\d{2} बजे/);
    expect(table).not.toHaveTextContent(/\b(am|pm|on)\b/);
  });

  test('a wrong password shows under the field in the dialog, which stays open', async () => {
    answers({
      'POST /api/account/sessions/end': () => ({
        status: 400,
        body: {
          message: englishFieldMessage('wrong-current-password'),
          fieldErrors: { currentPassword: englishFieldMessage('wrong-current-password') },
        },
      }),
    });
    renderApp('/settings');
    await userEvent.click(await screen.findByRole('button', { name: 'End all other sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'End all other sessions?' });
    const field = within(dialog).getByLabelText('Current password');
    await userEvent.type(field, 'not my password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'End all other sessions' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(englishFieldMessage('wrong-current-password'));
    expect(screen.getByRole('dialog', { name: 'End all other sessions?' })).toBeVisible();
  });

  test('"End all other sessions" sends allOthers and says how many ended', async () => {
    let sent: unknown;
    answers({
      'POST /api/account/sessions/end': (init) => {
        sent = JSON.parse(String(init?.body));
        return { status: 200, body: { revoked: 2, signedOut: false } };
      },
    });
    renderApp('/settings');
    await userEvent.click(await screen.findByRole('button', { name: 'End all other sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'End all other sessions?' });
    expect(dialog).toHaveTextContent('This browser stays signed in');
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'my passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'End all other sessions' }));
    expect(await screen.findByRole('status')).toHaveTextContent('2 other sessions ended');
    expect(sent).toEqual({ currentPassword: 'my passphrase', allOthers: true });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Its button is disabled once the list is read again: the heading has the focus.
    expect(screen.getByRole('heading', { name: 'Signed-in sessions' })).toHaveFocus();
  });

  test("ending this device's session goes to the sign-in page", async () => {
    let signedOut = false;
    mockApi({
      session: () => (signedOut ? null : operator),
      routes: {
        'GET /api/account/sessions': () => ({ status: 200, body: { items: [phone, thisBrowser] } }),
        'GET /api/account/two-factor': () => ({ status: 200, body: twoFactorOff }),
        'POST /api/account/sessions/end': () => {
          signedOut = true;
          return { status: 200, body: { revoked: 1, signedOut: true } };
        },
      },
    });
    const { router } = renderApp('/settings');
    await userEvent.click(
      await screen.findByRole('button', { name: 'End the session of this device' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'End this session?' });
    expect(dialog).toHaveTextContent('you are signed out here');
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'my passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'End session' }));
    expect(await screen.findByRole('status')).toHaveTextContent('You are signed out');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  test("signing every operator out refreshes the administrator's own list of sessions", async () => {
    let signedOutAll = false;
    mockApi({
      session: signedIn,
      routes: {
        'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor: false } }),
        'GET /api/operators': () => ({
          status: 200,
          body: { items: [{ ...signedIn.user, deactivatedAt: null, twoFactorEnabled: false }] },
        }),
        'GET /api/account/two-factor': () => ({ status: 200, body: twoFactorOff }), // The administrator's phone is one of the sessions the call ends.
        'GET /api/account/sessions': () => ({
          status: 200,
          body: { items: signedOutAll ? [thisBrowser] : [phone, thisBrowser] },
        }),
        'POST /api/operators/sign-out-all': () => {
          signedOutAll = true;
          return { status: 200, body: { revoked: 3 } };
        },
      },
    });
    renderApp('/settings');
    expect(await screen.findByText('Safari on iOS')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out every operator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out every operator?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everyone' }));
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).toBeNull());
    expect(screen.getByRole('button', { name: 'End all other sessions' })).toBeDisabled();
  });
});
