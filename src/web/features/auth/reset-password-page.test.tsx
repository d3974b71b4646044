import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import {
  clientListAnswer,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const link = '/reset-password#token=abcdefghijklmnopqrstuvwx';
const expiresAt = '2030-01-01T10:00:00.000Z';
const other = { user: { id: 'u2', email: 'admin@example.com', role: 'admin' } };

/**
 * The reset page's answers for a link of op@example.com, with this browser signed in as
 * `session` (null: nobody); the reset ends every session of op@example.com, as the server does.
 */
function answers(initial: typeof signedIn | null, { sessionReadFails = false } = {}) {
  let session = initial;
  let reset = false;
  const sent: unknown[] = [];
  const api = mockApi({
    routes: {
      'GET /api/auth/get-session': () =>
        reset && sessionReadFails
          ? { status: 503, body: { message: 'Service unavailable' } }
          : { status: 200, body: session },
      'GET /api/clients': () => clientListAnswer(),
      'POST /api/password-reset/check': () => ({
        status: 200,
        body: { email: signedIn.user.email, expiresAt },
      }),
      'POST /api/password-reset': (init) => {
        sent.push(JSON.parse(String(init?.body)));
        reset = true;
        if (session?.user.email === signedIn.user.email) session = null;
        return { status: 200, body: { success: true } };
      },
      'POST /api/auth/sign-out': () => {
        session = null;
        return { status: 200, body: { success: true } };
      },
    },
  });
  return { ...api, sent };
}

async function chooseNewPassword() {
  const form = await screen.findByRole('form', { name: 'Choose a new password' });
  await userEvent.type(within(form).getByLabelText('New password'), 'a fresh passphrase to keep');
  await userEvent.type(
    within(form).getByLabelText('Repeat the new password'),
    'a fresh passphrase to keep',
  );
  await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
}

describe('the password-reset page, by who this browser is signed in as', () => {
  test('signed out: the form alone, then the sign-in page', async () => {
    const { sent } = answers(null);
    const { router } = renderApp(link);
    expect(await screen.findByText(signedIn.user.email)).toBeVisible();
    expect(screen.queryByText(/You are signed in as/)).toBeNull();
    expect(screen.queryByRole('button', { name: /Sign out/ })).toBeNull();

    await chooseNewPassword();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(sent).toEqual([
      { token: 'abcdefghijklmnopqrstuvwx', password: 'a fresh passphrase to keep' },
    ]);
    expect(await screen.findByText('Your password is changed: sign in with it')).toBeVisible();
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeVisible();
  });

  test.each([
    ['', false],
    [', even when the session cannot be read again', true],
  ])(
    "signed in as the link's operator: told that this session ends too, then signed out on the sign-in page%s",
    async (_, sessionReadFails) => {
      const { calls } = answers(signedIn, { sessionReadFails });
      const { router } = renderApp(link);
      const notice = await screen.findByText(/You are signed in as op@example\.com\./);
      expect(notice).toHaveTextContent('ends every session of yours, this one too');
      expect(screen.queryByRole('button', { name: /Sign out/ })).toBeNull();

      await chooseNewPassword();
      // Signed out at once, not left signed in on a session the server ended.
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
      expect(await screen.findByRole('heading', { name: 'Login' })).toBeVisible();
      expect(await screen.findByText('Your password is changed: sign in with it')).toBeVisible();
      expect(screen.queryByText('op@example.com')).toBeNull();
      // Still there, not sent to the dashboard by a session read before the reset.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(router.state.location.pathname).toBe('/login');
      expect(calls).not.toContain('GET /api/clients');
    },
  );

  test('signed in as another operator: told whose password it sets, with a way to sign out', async () => {
    const { calls } = answers(other);
    renderApp(link);
    const notice = await screen.findByText(/You are signed in as/);
    expect(notice).toHaveTextContent(
      'You are signed in as admin@example.com. This link sets the password of op@example.com; you stay signed in as admin@example.com.',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Sign out of admin@example.com' }));
    expect(await screen.findByText('Logged Out !!')).toBeVisible();
    await waitFor(() => expect(screen.queryByText(/You are signed in as/)).toBeNull());
    expect(calls).toContain('POST /api/auth/sign-out');
    // The form stays, for the link's operator to use.
    expect(screen.getByRole('form', { name: 'Choose a new password' })).toBeVisible();
    expect(screen.getByText(signedIn.user.email)).toBeVisible();
  });

  test('signed in as another operator who uses the link anyway: still signed in, told so', async () => {
    answers(other);
    const { router } = renderApp(link);
    await screen.findByText(/You are signed in as/);
    await chooseNewPassword();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(
      await screen.findByText(
        'The password of op@example.com is changed: they sign in with it. You are still signed in as admin@example.com',
      ),
    ).toBeVisible();
  });
});
