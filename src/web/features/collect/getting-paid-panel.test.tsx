import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { DEFAULT_COLLECTION_SETTINGS } from '../../../shared/collection-schema.ts';
import {
  apiClient,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const asha = apiClient('a1', 'Asha', 'Verma', '150000.00');
const ravi = apiClient('b2', 'Ravi', 'Kumar', '-20.00');

function settingsApi(
  put?: (body: Record<string, string | number>) => { status: number; body?: unknown },
) {
  const sent: Record<string, string | number>[] = [];
  mockApi({
    session: signedIn,
    routes: {
      'GET /api/settings/security': () => ({ status: 200, body: { requireTwoFactor: false } }),
      'GET /api/operators': () => ({ status: 200, body: { items: [] } }),
      'GET /api/account/sessions': () => ({ status: 200, body: { items: [] } }),
      'GET /api/account/two-factor': () => ({
        status: 200,
        body: { enabled: true, backupCodesLeft: 10 },
      }),
      'GET /api/collection-settings': () => ({
        status: 200,
        body: {
          ...DEFAULT_COLLECTION_SETTINGS,
          businessName: 'Verma Stores',
          paymentTermsDays: 15,
        },
      }),
      'PUT /api/collection-settings': (init) => {
        const body = JSON.parse(String(init?.body)) as Record<string, string | number>;
        sent.push(body);
        return put ? put(body) : { status: 200, body };
      },
      'GET /api/clients': () => ({
        status: 200,
        body: { items: [asha, ravi], total: 2, totalOwed: '150000.00' },
      }),
    },
  });
  return { sent };
}

async function gettingPaid() {
  const form = await screen.findByRole('form', { name: 'Getting paid' });
  await waitFor(() =>
    expect(within(form).getByLabelText('Business name')).toHaveValue('Verma Stores'),
  );
  return form;
}

describe('Settings, getting paid', () => {
  test('the preview fills the message for a real client as it is typed, and another client can be picked', async () => {
    settingsApi();
    renderApp('/settings');
    const form = await gettingPaid();
    const preview = await within(form).findByTestId('preview-message');
    expect(preview).toHaveTextContent(
      'Namaste Asha Verma, a reminder from Verma Stores: ₹1,50,000.00 is due. Your statement, and a way to pay by UPI: (statement link)',
    );
    const message = within(form).getByLabelText('Reminder message');
    await userEvent.clear(message);
    await userEvent.type(message, 'Pay {{amount} to {{upi}, {{name}');
    await userEvent.type(within(form).getByLabelText('UPI ID'), 'verma@okaxis');
    expect(preview).toHaveTextContent('Pay ₹1,50,000.00 to verma@okaxis, Asha Verma');

    await userEvent.selectOptions(within(form).getByLabelText('For client'), 'Ravi Kumar');
    // Credit is not owed: the amount is ₹0.00.
    expect(preview).toHaveTextContent('Pay ₹0.00 to verma@okaxis, Ravi Kumar');
    expect(within(form).getByTestId('preview-subject')).toHaveTextContent(
      'Payment reminder from Verma Stores',
    );
  });

  test('what the form refuses is said under its field and nothing is sent', async () => {
    const { sent } = settingsApi();
    renderApp('/settings');
    const form = await gettingPaid();
    await userEvent.type(within(form).getByLabelText('UPI ID'), 'not a upi');
    const message = within(form).getByLabelText('Reminder message');
    await userEvent.type(message, ' {{amont}');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByLabelText('UPI ID')).toHaveAccessibleDescription(
      /Enter a UPI ID such as yourname@okbank/,
    );
    expect(message).toHaveAccessibleDescription(/Unknown placeholder \{amont\}/);
    expect(sent).toEqual([]);
  });

  test('saving sends every field and says Saved; a refusal from the server shows under its field', async () => {
    let refuse = true;
    const { sent } = settingsApi(() =>
      refuse
        ? {
            status: 400,
            body: { message: 'Invalid input', fieldErrors: { payeeName: 'Payee name is taken' } },
          }
        : { status: 200, body: sent.at(-1) },
    );
    renderApp('/settings');
    const form = await gettingPaid();
    await userEvent.type(within(form).getByLabelText('UPI ID'), 'verma@okaxis');
    await userEvent.type(within(form).getByLabelText('Payee name'), 'A Verma');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(within(form).getByLabelText('Payee name')).toHaveAccessibleDescription(
        /Payee name is taken/,
      ),
    );

    refuse = false;
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeVisible();
    expect(sent.at(-1)).toEqual({
      ...DEFAULT_COLLECTION_SETTINGS,
      businessName: 'Verma Stores',
      upiId: 'verma@okaxis',
      payeeName: 'A Verma',
      paymentTermsDays: 15,
    });
  });

  test('payment terms are sent as a number of days, and the server’s refusal shows under them', async () => {
    let refuse = true;
    const { sent } = settingsApi(() =>
      refuse
        ? {
            status: 400,
            body: {
              message: 'Invalid input',
              fieldErrors: { paymentTermsDays: 'Payment terms must be at most 365 days' },
            },
          }
        : { status: 200, body: sent.at(-1) },
    );
    renderApp('/settings');
    const form = await gettingPaid();
    const terms = within(form).getByLabelText('Payment terms (days)');
    expect(terms).toHaveValue(15);
    await userEvent.clear(terms);
    await userEvent.type(terms, '30');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(terms).toHaveAccessibleDescription(/Payment terms must be at most 365 days/),
    );
    expect(sent.at(-1)?.paymentTermsDays).toBe(30);

    refuse = false;
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeVisible();
    expect(terms).toHaveValue(30);
  });

  test('payment terms past a year, or not whole days, are refused before sending', async () => {
    const { sent } = settingsApi();
    renderApp('/settings');
    const form = await gettingPaid();
    const terms = within(form).getByLabelText('Payment terms (days)');
    await userEvent.clear(terms);
    await userEvent.type(terms, '366');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(terms).toHaveAccessibleDescription(/Payment terms must be at most 365 days/);
    await userEvent.clear(terms);
    await userEvent.type(terms, '2.5');
    expect(terms).toHaveAccessibleDescription(/whole number of days/);
    await userEvent.clear(terms);
    expect(terms).toHaveAccessibleDescription(/whole number of days/);
    expect(sent).toEqual([]);
  });
});
