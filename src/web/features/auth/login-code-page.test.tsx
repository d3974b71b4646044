import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { SIGN_IN_AGAIN_MESSAGE } from '../../../shared/two-factor-schema.ts';
import {
  clientListAnswer,
  englishFieldMessage,
  type Handler,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

/** The sign-in page's answers for an account with two-factor sign-in on. */
function twoFactorAccount(secondFactor: Handler) {
  let session: typeof signedIn | null = null;
  const sent: unknown[] = [];
  const api = mockApi({
    session: () => session,
    routes: {
      'GET /api/clients': () => clientListAnswer(),
      'POST /api/auth/sign-in/email': () => ({ status: 200, body: { secondFactorRequired: true } }),
      'POST /api/auth/sign-in/second-factor': async (init) => {
        sent.push(JSON.parse(String(init?.body)));
        const answer = await secondFactor(init);
        if (answer.status === 200) session = signedIn;
        return answer;
      },
    },
  });
  return { ...api, sent };
}

async function signInWithPassword() {
  await userEvent.type(await screen.findByLabelText('Email'), 'op@example.com');
  await userEvent.type(screen.getByLabelText('Password'), 'my passphrase');
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
}

describe('signing in with two-factor sign-in on', () => {
  test('the right password leads to the code page, and the code signs in and goes to the dashboard', async () => {
    const { sent } = twoFactorAccount(() => ({ status: 200, body: signedIn }));
    const { router } = renderApp('/login');
    await signInWithPassword();

    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/login/code');
    // Not signed in yet: the password alone gave no session.
    expect(screen.queryByTestId('navbar-email')).toBeNull();
    const field = screen.getByLabelText('Authentication code');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAccessibleDescription('Or one of your backup codes');
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');

    await userEvent.type(field, '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Logged in Success !!');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByTestId('navbar-email')).toHaveTextContent('op@example.com');
    expect(sent).toEqual([{ code: '123 456' }]);
  });

  test('a wrong code shows under the field, and the page stays for another try', async () => {
    twoFactorAccount(() => ({
      status: 400,
      body: {
        message: englishFieldMessage('two-factor-wrong-code'),
        fieldErrors: { code: englishFieldMessage('two-factor-wrong-code') },
      },
    }));
    const { router } = renderApp('/login');
    await signInWithPassword();
    const field = await screen.findByLabelText('Authentication code');
    await userEvent.type(field, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(
      `Or one of your backup codes ${englishFieldMessage('two-factor-wrong-code')}`,
    );
    expect(router.state.location.pathname).toBe('/login/code');
    expect(screen.queryByTestId('navbar-email')).toBeNull();
  });

  test('nothing is sent without a code', async () => {
    const { sent } = twoFactorAccount(() => ({ status: 200, body: signedIn }));
    renderApp('/login/code');
    await userEvent.click(await screen.findByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the code from your authenticator app')).toBeVisible();
    expect(sent).toEqual([]);
  });

  test('too many attempts are said on the page, which stays', async () => {
    twoFactorAccount(() => ({
      status: 429,
      body: { message: 'Too many attempts. Please wait and try again.' },
    }));
    renderApp('/login/code');
    await userEvent.type(await screen.findByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    const main = screen.getByRole('main');
    expect(await within(main).findByRole('alert')).toHaveTextContent(
      'Too many attempts. Please wait and try again.',
    );
    expect(screen.getByLabelText('Authentication code')).toHaveValue('123456');
  });

  test('an expired sign-in goes back to the login page and says to sign in again', async () => {
    twoFactorAccount(() => ({
      status: 401,
      body: { message: SIGN_IN_AGAIN_MESSAGE, code: 'sign-in-again' },
    }));
    const { router } = renderApp('/login/code');
    await userEvent.type(await screen.findByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.getByRole('alert')).toHaveTextContent(SIGN_IN_AGAIN_MESSAGE);
  });
});
