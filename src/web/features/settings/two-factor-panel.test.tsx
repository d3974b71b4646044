import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { TwoFactorStatus } from '../../../shared/two-factor-schema.ts';
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
const backupCodes = Array.from({ length: 10 }, (_, i) => `code${i}-abcde`);
const setup = {
  uri: 'otpauth://totp/Client%20Panel:op%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Client%20Panel',
  secret: 'JBSWY3DPEHPK3PXP',
  backupCodes,
};

/**
 * The settings page's answers, with the two-factor status each answer of a two-factor
 * request leaves behind (as the server would); `sent` holds each request's body.
 */
function answers(status: TwoFactorStatus, extra: ApiRoutes) {
  let current = status;
  const sent: Record<string, unknown> = {};
  const recorded = Object.entries(extra).map(([key, handler]) => [
    key,
    async (init: RequestInit | undefined) => {
      sent[key] = JSON.parse(String(init?.body));
      const answer = await handler(init);
      const body = answer.body as Partial<TwoFactorStatus> | undefined;
      if (answer.status === 200 && typeof body?.enabled === 'boolean') {
        current = body as TwoFactorStatus;
      }
      return answer;
    },
  ]);
  const api = mockApi({
    session: operator,
    routes: {
      'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
      'GET /api/account/two-factor': () => ({ status: 200, body: current }),
      ...Object.fromEntries(recorded),
    },
  });
  return { ...api, sent };
}

async function section() {
  return screen.findByRole('region', { name: 'Two-factor sign-in' });
}

describe('two-factor sign-in in the account section', () => {
  test('turning it on asks for the password, shows the QR code, the key and the backup codes, and a code from the app turns it on', async () => {
    const { sent, calls } = answers(
      { enabled: false, backupCodesLeft: 0 },
      {
        'POST /api/account/two-factor/setup': () => ({ status: 200, body: setup }),
        'POST /api/account/two-factor/confirm': (init) =>
          JSON.parse(String(init?.body)).code === '123456'
            ? { status: 200, body: { enabled: true, backupCodesLeft: 10 } }
            : {
                status: 400,
                body: {
                  message: englishFieldMessage('two-factor-wrong-code'),
                  fieldErrors: { code: englishFieldMessage('two-factor-wrong-code') },
                },
              },
      },
    );
    renderApp('/settings');
    const panel = await section();
    expect(await within(panel).findByText(/^Off\./)).toBeVisible();
    await userEvent.click(
      within(panel).getByRole('button', { name: 'Turn on two-factor sign-in' }),
    );

    let dialog = await screen.findByRole('dialog', { name: 'Turn on two-factor sign-in' });
    // Nothing is sent without the password.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    expect(await within(dialog).findByText('Enter your current password')).toBeVisible();
    expect(calls).not.toContain('POST /api/account/two-factor/setup');
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'my passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));

    dialog = await screen.findByRole('dialog', { name: 'Turn on two-factor sign-in' });
    const qr = await within(dialog).findByRole('img', {
      name: 'QR code for your authenticator app',
    });
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/);
    // The password field that had the focus is gone: the new step's title takes it, to be read
    // from the top (the QR code, the key, the backup codes, then the code).
    expect(within(dialog).getByText('Turn on two-factor sign-in')).toHaveFocus();
    expect(within(dialog).getByLabelText('Or type this key into the app')).toHaveValue(
      'JBSWY3DPEHPK3PXP',
    );
    const codes = within(dialog).getByRole('list', { name: /Backup codes/ });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(backupCodes);
    expect(within(dialog).getByRole('link', { name: 'Download the codes' })).toHaveAttribute(
      'download',
      'client-panel-backup-codes.txt',
    );
    expect(sent['POST /api/account/two-factor/setup']).toEqual({
      currentPassword: 'my passphrase',
    });

    // A wrong code says so under its field, and changes nothing.
    const code = within(dialog).getByLabelText('Code from the app');
    await userEvent.type(code, '000000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
    expect(code).toHaveAccessibleDescription(englishFieldMessage('two-factor-wrong-code'));
    expect(within(panel).getByText(/^Off\./)).toBeVisible();

    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn on' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Two-factor sign-in is on');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(panel).getByText(/^On:/)).toHaveTextContent('You have 10 backup codes left.');
    expect(
      within(panel).getByRole('button', { name: 'Turn off two-factor sign-in' }),
    ).toBeVisible();
    // "Turn on", which opened the dialog, is gone: the first button of the "on" state has the
    // focus, not the page's start.
    expect(within(panel).getByRole('button', { name: 'New backup codes' })).toHaveFocus();
  });

  test('turning it off asks for the password first, and a wrong one changes nothing', async () => {
    const { sent } = answers(
      { enabled: true, backupCodesLeft: 7 },
      {
        'POST /api/account/two-factor/disable': (init) =>
          JSON.parse(String(init?.body)).currentPassword === 'my passphrase'
            ? { status: 200, body: { enabled: false, backupCodesLeft: 0 } }
            : {
                status: 400,
                body: {
                  message: englishFieldMessage('wrong-current-password'),
                  fieldErrors: { currentPassword: englishFieldMessage('wrong-current-password') },
                },
              },
      },
    );
    renderApp('/settings');
    const panel = await section();
    expect(await within(panel).findByText(/^On:/)).toHaveTextContent(
      'You have 7 backup codes left.',
    );
    await userEvent.click(
      within(panel).getByRole('button', { name: 'Turn off two-factor sign-in' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    const field = within(dialog).getByLabelText('Current password');
    await userEvent.type(field, 'not my password');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(englishFieldMessage('wrong-current-password'));
    expect(within(panel).getByText(/^On:/)).toBeVisible();

    await userEvent.clear(field);
    await userEvent.type(field, 'my passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Two-factor sign-in is off');
    expect(await within(panel).findByText(/^Off\./)).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // "Turn off" is gone: "Turn on" in its place has the focus.
    expect(within(panel).getByRole('button', { name: 'Turn on two-factor sign-in' })).toHaveFocus();
    expect(sent['POST /api/account/two-factor/disable']).toEqual({
      currentPassword: 'my passphrase',
    });
  });

  test('new backup codes ask for the password and are shown once', async () => {
    answers(
      { enabled: true, backupCodesLeft: 1 },
      {
        'POST /api/account/two-factor/backup-codes': () => ({
          status: 200,
          body: { backupCodes },
        }),
      },
    );
    renderApp('/settings');
    const panel = await section();
    expect(await within(panel).findByText(/^On:/)).toHaveTextContent(
      'You have 1 backup code left.',
    );
    await userEvent.click(within(panel).getByRole('button', { name: 'New backup codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'New backup codes?' });
    expect(dialog).toHaveTextContent('every one you have now stops working');
    await userEvent.type(within(dialog).getByLabelText('Current password'), 'my passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make new backup codes' }));
    const shown = await screen.findByRole('dialog', { name: 'Your new backup codes' });
    // The password field that had the focus is gone: the codes' title takes it.
    expect(within(shown).getByText('Your new backup codes')).toHaveFocus();
    expect(within(shown).getAllByRole('listitem')).toHaveLength(10);
    expect(within(shown).getByText('code3-abcde')).toBeVisible();
    await userEvent.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Its button is still there, and has the focus back.
    expect(within(panel).getByRole('button', { name: 'New backup codes' })).toHaveFocus();
  });
});
