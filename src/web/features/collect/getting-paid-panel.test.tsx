import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Client } from '../../../shared/client-schema.ts';
import { DEFAULT_COLLECTION_SETTINGS } from '../../../shared/collection-schema.ts';
import { changeLanguage } from '../../i18n/language.ts';
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
const meera: Client = { ...apiClient('c3', 'Meera', 'Pillai', '2500.00'), language: 'hi' };

type Sent = Record<string, unknown>;

function settingsApi(
  put?: (body: Sent) => { status: number; body?: unknown },
  clients: Client[] = [asha, ravi],
) {
  const sent: Sent[] = [];
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
        const body = JSON.parse(String(init?.body)) as Sent;
        sent.push(body);
        return put ? put(body) : { status: 200, body };
      },
      'GET /api/clients': () => ({
        status: 200,
        body: { items: clients, total: clients.length, totalOwed: '150000.00' },
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
      'Namaste Asha Verma, a reminder from Verma Stores: ₹1,50,000.00 is outstanding. Your statement, and a way to pay by UPI: (statement link)',
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

describe('Settings, getting paid: the Hindi reminder', () => {
  const hindi = DEFAULT_COLLECTION_SETTINGS.templates.hi;

  test('is edited beside the English one and saved as templates.hi; a Hindi client’s preview is written with it', async () => {
    const { sent } = settingsApi(undefined, [meera, asha]);
    renderApp('/settings');
    const form = await gettingPaid();
    const message = within(form).getByLabelText('Reminder message in Hindi');
    const subject = within(form).getByLabelText('E-mail subject in Hindi');
    expect(message).toHaveValue(hindi.reminderMessage);
    expect(message).toHaveAttribute('lang', 'hi');
    expect(message).toHaveAccessibleDescription(
      'For clients whose language is Hindi. Placeholders: {name}, {amount}, {business}, {link}, {upi}.',
    );
    expect(subject).toHaveValue(hindi.reminderEmailSubject);

    // Meera reads Hindi: her preview is the Hindi template, its link's stand-in in Hindi.
    const preview = await within(form).findByTestId('preview-message');
    expect(preview).toHaveTextContent(
      'नमस्ते Meera Pillai जी, Verma Stores की ओर से रिमाइंडर: आपका ₹2,500.00 बकाया है। अपना खाता विवरण देखें और UPI से भुगतान करें: (खाता विवरण का लिंक)',
    );
    expect(preview).toHaveAttribute('lang', 'hi');
    expect(within(form).getByTestId('preview-language')).toHaveTextContent(
      "In the client's language: हिन्दी",
    );
    await userEvent.clear(message);
    await userEvent.type(message, '{{name} जी, {{amount} बाकी है');
    await userEvent.clear(subject);
    await userEvent.type(subject, '{{business} से याद दिलाना');
    expect(preview).toHaveTextContent('Meera Pillai जी, ₹2,500.00 बाकी है');
    expect(within(form).getByTestId('preview-subject')).toHaveTextContent(
      'Verma Stores से याद दिलाना',
    );
    // Asha reads English: hers is the English template.
    await userEvent.selectOptions(within(form).getByLabelText('For client'), 'Asha Verma');
    expect(preview).toHaveTextContent(/^Namaste Asha Verma, a reminder from Verma Stores/);
    expect(within(form).getByTestId('preview-language')).toHaveTextContent(
      "In the client's language: English",
    );

    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved')).toBeVisible();
    expect(sent.at(-1)).toEqual({
      ...DEFAULT_COLLECTION_SETTINGS,
      businessName: 'Verma Stores',
      paymentTermsDays: 15,
      templates: {
        hi: {
          reminderMessage: '{name} जी, {amount} बाकी है',
          reminderEmailSubject: '{business} से याद दिलाना',
        },
      },
    });
  });

  test('what the form refuses in the Hindi template is said under the Hindi field, not the English one', async () => {
    const { sent } = settingsApi();
    renderApp('/settings');
    const form = await gettingPaid();
    const message = within(form).getByLabelText('Reminder message in Hindi');
    await userEvent.type(message, ' {{naam}');
    await userEvent.clear(within(form).getByLabelText('E-mail subject in Hindi'));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(message).toHaveAccessibleDescription(/Unknown placeholder \{naam\}/);
    expect(within(form).getByLabelText('E-mail subject in Hindi')).toHaveAccessibleDescription(
      /E-mail subject is required/,
    );
    expect(within(form).getByLabelText('Reminder message')).not.toHaveAccessibleDescription(
      /Unknown placeholder/,
    );
    expect(sent).toEqual([]);
  });

  test('in Hindi: the labels, and the server’s refusal under templates.hi.reminderMessage in Hindi', async () => {
    settingsApi(() => ({
      status: 400,
      body: {
        message: 'Invalid request',
        code: 'validation',
        fieldErrors: {
          'templates.hi.reminderMessage':
            'Unknown placeholder {naam}: use {name}, {amount}, {business}, {link}, {upi}',
        },
        fieldCodes: { 'templates.hi.reminderMessage': 'template.unknown-placeholder' },
      },
    }));
    await changeLanguage('hi');
    renderApp('/settings');
    const form = await screen.findByRole('form', { name: 'भुगतान कैसे मिले' });
    await waitFor(() =>
      expect(within(form).getByLabelText('व्यवसाय का नाम')).toHaveValue('Verma Stores'),
    );
    const message = within(form).getByLabelText('हिन्दी में रिमाइंडर का संदेश');
    expect(within(form).getByLabelText('हिन्दी में ईमेल का विषय')).toBeVisible();
    await userEvent.click(within(form).getByRole('button', { name: 'सहेजें' }));
    await waitFor(() => expect(message).toHaveAttribute('aria-invalid', 'true'));
    expect(message).toHaveAccessibleDescription(
      /अनजाना प्लेसहोल्डर \{naam\}: इनका इस्तेमाल करें \{name\}, \{amount\}/,
    );
    expect(message).not.toHaveAccessibleDescription(/Unknown placeholder/);
    expect(within(form).getByLabelText('रिमाइंडर का संदेश')).toHaveAttribute('aria-invalid', 'false');
  });
});
