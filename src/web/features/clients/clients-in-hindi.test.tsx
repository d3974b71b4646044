import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import type { Client, ClientList } from '../../../shared/client-schema.ts';
import { changeLanguage, i18n } from '../../i18n/language.ts';
import { translate } from '../../i18n/translate.tsx';
import {
  type ApiRoutes,
  apiClient,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

/*
 * The list, a client's page, the add-client form and the import in Hindi. The texts of the
 * server's refusal and field codes live in the shared catalogues (errors.json, validation.json),
 * which the server's codes fill: these tests give the few they use their own Hindi, so that
 * what they check is that the pages show the code's text, whatever the catalogues say.
 */
const CODE_TEXTS = {
  'errors.validation': 'कुछ जानकारी सही नहीं है',
  'validation.fname.required': 'पहला नाम ज़रूरी है',
  'validation.lname.required': 'उपनाम ज़रूरी है',
  'validation.fname.short': 'पहला नाम कम से कम 2 अक्षर का हो',
  'validation.email.taken': 'इस ईमेल का एक ग्राहक पहले से है',
};

// The shared schemas' English messages and their codes, as validation.json will hold them.
vi.mock('../../../shared/validation-messages.ts', async (original) => {
  const actual = await original<typeof import('../../../shared/validation-messages.ts')>();
  const codes: Record<string, string> = {
    'First name is required': 'fname.required',
    'Last name is required': 'lname.required',
    'First name must be at least 2 characters': 'fname.short',
  };
  return {
    ...actual,
    validationCodeOf: (message: string) => codes[message] ?? actual.validationCodeOf(message),
  };
});

async function inHindi(): Promise<void> {
  await changeLanguage('hi');
  i18n.load('hi', CODE_TEXTS);
}

const asha: Client = {
  ...apiClient('a1', 'Asha', 'Verma', '3500.00'),
  overdue: '3000.00',
  overdueSince: '2025-09-12',
  lastPaymentOn: '2025-09-01',
  pendingClaims: 2,
};
const ravi: Client = { ...apiClient('b2', 'Ravi', 'Kumar', '-500.00'), pendingClaims: 1 };
const meera: Client = {
  ...apiClient('c3', 'Meera', 'Pillai', '0.00'),
  phone: '+91123456789',
  phoneDisplay: '123456789',
  phoneValid: false,
};

const totals = {
  clients: 3,
  totalOwed: '3500.00',
  owing: '3500.00',
  owingClients: 1,
  credit: '500.00',
  creditClients: 1,
  pendingClaims: 3,
  overdue: '3000.00',
  collectedThisMonth: '0.00',
  collectedLastMonth: '0.00',
  // The panel's day: Asha's amount is 74 days overdue on it.
  today: '2025-11-25',
};

function api(list: ClientList, extra: ApiRoutes = {}) {
  return mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({ status: 200, body: list }),
      'GET /api/totals': () => ({ status: 200, body: totals }),
      ...extra,
    },
  });
}

describe('the clients in Hindi', () => {
  test('the list, switched to Hindi: headings, filters, counts with plurals in Indian grouping, dates and marks', async () => {
    api({ items: [asha, ravi, meera], total: 123456, totalOwed: '9876543.00' });
    renderApp('/clients?balance=owing');
    await screen.findByRole('table', { name: 'Clients' });
    // Counts keep the Indian grouping in English too.
    expect(await screen.findByTestId('overall-owed')).toHaveTextContent(
      'of ₹98,76,543.00 owed across all 1,23,456 clients',
    );
    expect(screen.getByText('1–3 of 1,23,456')).toBeVisible();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'hi');

    expect(await screen.findByRole('heading', { name: 'ग्राहक' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('ग्राहक · क्लाइंट पैनल'));
    const table = screen.getByRole('table', { name: 'ग्राहक' });
    for (const name of ['पहला नाम', 'उपनाम', 'फ़ोन', 'बकाया', 'अतिदेय', 'पिछला भुगतान']) {
      expect(within(table).getByRole('columnheader', { name })).toBeVisible();
    }
    expect(screen.getByRole('combobox', { name: 'दिखाएँ' })).toHaveDisplayValue('बकाया वाले');
    expect(screen.getByRole('combobox', { name: 'कब से अतिदेय' })).toHaveDisplayValue(
      'अतिदेय हों या नहीं',
    );
    expect(screen.getByRole('searchbox', { name: 'ग्राहक खोजें' })).toBeVisible();

    const rowOf = (name: string) =>
      within(table)
        .getAllByRole('row')
        .find((row) => row.textContent?.includes(name));
    expect(rowOf('Asha')).toHaveTextContent('भुगतान की 2 सूचनाएँ');
    expect(rowOf('Asha')).toHaveTextContent('₹3,000.00 · 74 दिन');
    expect(rowOf('Asha')).toHaveTextContent('1 सितंबर 2025');
    expect(rowOf('Ravi')).toHaveTextContent('भुगतान की 1 सूचना');
    expect(rowOf('Ravi')).toHaveTextContent('₹500.00 अग्रिम');
    expect(rowOf('Ravi')).toHaveTextContent('कभी नहीं');
    expect(rowOf('Meera')).toHaveTextContent('123456789यह नंबर जाँचें');

    expect(screen.getByText('1,23,456 में से 1–3')).toBeVisible();
    expect(screen.getByTestId('total-owed')).toHaveTextContent('कुल बकाया : ₹98,76,543.00');
    expect(screen.getByTestId('overall-owed')).toHaveTextContent(
      'सभी 1,23,456 ग्राहकों के कुल ₹98,76,543.00 बकाया में से',
    );
    expect(screen.queryByText(/Total Owed|per page|never/)).toBeNull();
  });

  test('an empty search says so in Hindi', async () => {
    api({ items: [], total: 0, totalOwed: '0.00' });
    await inHindi();
    renderApp('/clients?q=nobody');
    expect(await screen.findByText('"nobody" से मेल खाता कोई ग्राहक नहीं')).toBeVisible();
  });

  test('picked rows: the count, the delete’s plural and its Undo', async () => {
    const restored: string[][] = [];
    api(
      { items: [asha, ravi], total: 2, totalOwed: '3000.00' },
      {
        'POST /api/clients/delete': () => ({ status: 200, body: { deleted: ['a1', 'b2'] } }),
        'POST /api/clients/restore': (init) => {
          restored.push(JSON.parse(String(init?.body)).ids);
          return { status: 200, body: { restored: [asha, ravi] } };
        },
      },
    );
    await inHindi();
    renderApp('/clients');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'इस पेज के सभी चुनें' }));
    expect(screen.getByText('2 चुने गए')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'चुने गए हटाएँ' }));

    const dialog = await screen.findByRole('dialog', { name: 'क्या आपको यकीन है?' });
    expect(dialog).toHaveTextContent(
      '2 ग्राहकों को उनके हिसाब समेत हटा दिया जाएगा: Asha Verma, Ravi Kumar।',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'हटाएँ' }));
    const deleted = await screen.findByText('2 ग्राहक हटाए गए');
    await userEvent.click(within(deleted).getByRole('button', { name: 'पहले जैसा करें' }));
    expect(await screen.findByText('2 ग्राहक वापस लाए गए')).toBeVisible();
    expect(restored).toEqual([['a1', 'b2']]);
  });
});

describe('a client’s page in Hindi', () => {
  test('the balance, what is overdue since a Hindi date, the actions, and a delete with Undo', async () => {
    api(
      { items: [], total: 0, totalOwed: '0.00' },
      {
        'GET /api/clients/a1': () => ({ status: 200, body: asha }),
        'GET /api/clients/a1/entries': () => ({
          status: 200,
          body: { items: [], nextCursor: null },
        }),
        'DELETE /api/clients/a1': () => ({ status: 204 }),
        'POST /api/clients/a1/restore': () => ({ status: 200, body: asha }),
      },
    );
    await inHindi();
    renderApp('/client/a1');

    expect(await screen.findByRole('heading', { name: 'Asha Verma' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('Asha Verma · क्लाइंट पैनल'));
    expect(screen.getByRole('heading', { name: /^बकाया: ₹3,500.00/ })).toBeVisible();
    expect(await screen.findByText(/12 सितंबर 2025.*74 दिन/)).toBeVisible();
    expect(screen.getByText('पिछला भुगतान: 1 सितंबर 2025')).toBeVisible();
    for (const name of ['भुगतान दर्ज करें', 'उधार जोड़ें', 'खाता विवरण साझा करें', 'बदलें']) {
      expect(screen.getByRole(name === 'बदलें' ? 'link' : 'button', { name })).toBeVisible();
    }

    await userEvent.click(screen.getByRole('button', { name: 'हटाएँ' }));
    const dialog = await screen.findByRole('dialog', { name: 'क्या आपको यकीन है?' });
    expect(dialog).toHaveTextContent(
      'Asha Verma, जिन पर ₹3,500.00 बकाया है, उनके हिसाब समेत हटा दिए जाएँगे।',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'हटाएँ' }));
    const removed = await screen.findByText('ग्राहक हटाया गया');
    await userEvent.click(within(removed).getByRole('button', { name: 'पहले जैसा करें' }));
    expect(await screen.findByText('ग्राहक वापस आ गया')).toBeVisible();
  });

  test('a client that is not there says so in Hindi', async () => {
    api(
      { items: [], total: 0, totalOwed: '0.00' },
      { 'GET /api/clients/zz': () => ({ status: 404, body: { message: 'Client not found' } }) },
    );
    await inHindi();
    renderApp('/client/zz');
    expect(await screen.findByRole('heading', { name: 'ग्राहक नहीं मिला' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'डैशबोर्ड पर वापस' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('ग्राहक नहीं मिला · क्लाइंट पैनल'));
  });
});

describe('the add-client form in Hindi', () => {
  test('its own checks show each field’s message in Hindi', async () => {
    api({ items: [], total: 0, totalOwed: '0.00' });
    await inHindi();
    renderApp('/client/add');
    expect(await screen.findByRole('heading', { name: 'ग्राहक जोड़ें' })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('ग्राहक जोड़ें · क्लाइंट पैनल'));
    await userEvent.click(screen.getByRole('button', { name: 'सहेजें' }));
    expect(await screen.findByText('पहला नाम ज़रूरी है')).toBeVisible();
    expect(screen.getByText('उपनाम ज़रूरी है')).toBeVisible();
    expect(screen.getByLabelText('पहला नाम')).toHaveAccessibleDescription('पहला नाम ज़रूरी है');
    expect(screen.queryByText('First name is required')).toBeNull();
  });

  test('a refusal shows in Hindi: the server’s field codes under the fields, its code in red', async () => {
    api(
      { items: [], total: 0, totalOwed: '0.00' },
      {
        'POST /api/clients': () => ({
          status: 400,
          body: {
            message: 'Invalid request',
            code: 'validation',
            fieldErrors: { email: 'A client with this e-mail already exists' },
            fieldCodes: { email: 'email.taken' },
          },
        }),
      },
    );
    await inHindi();
    renderApp('/client/add');
    await userEvent.type(await screen.findByLabelText('पहला नाम'), 'Asha');
    await userEvent.type(screen.getByLabelText('उपनाम'), 'Verma');
    await userEvent.type(screen.getByLabelText('ईमेल'), 'asha@example.com');
    await userEvent.type(screen.getByLabelText('फ़ोन'), '98765 43210');
    await userEvent.click(screen.getByRole('button', { name: 'सहेजें' }));

    expect(await screen.findByText('इस ईमेल का एक ग्राहक पहले से है')).toBeVisible();
    expect(await screen.findByText('ग्राहक नहीं जोड़ा जा सका: कुछ जानकारी सही नहीं है')).toBeVisible();
    expect(screen.queryByText(/already exists|Invalid request/)).toBeNull();
  });
});

/** The upload of a file to the import, answered with `body` (XMLHttpRequest: it shows progress). */
function stubImportUpload(body: unknown): void {
  class FakeUpload {
    status = 200;
    responseText = JSON.stringify(body);
    upload = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open() {}
    setRequestHeader() {}
    send() {
      setTimeout(() => this.onload?.(), 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
}

describe('the import in Hindi', () => {
  test('its explanations, what the file would do, and each row’s problem', async () => {
    api({ items: [asha], total: 1, totalOwed: '3500.00' });
    stubImportUpload({
      rows: 3,
      valid: 2,
      duplicates: [],
      errors: [
        {
          row: 3,
          field: 'fname',
          message: 'First name must be at least 2 characters',
          code: 'fname.too-short',
        },
      ],
      columns: [
        { header: 'First Name', field: 'fname' },
        { header: 'Last Name', field: 'lname' },
        { header: '', field: null },
      ],
    });
    await inHindi();
    renderApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'इम्पोर्ट' }));
    const dialog = await screen.findByRole('dialog', { name: 'ग्राहक इम्पोर्ट करें' });
    expect(within(dialog).getByText(/ज़्यादा से ज़्यादा 10 MiB और 50,000 ग्राहक/)).toHaveTextContent(
      'कॉलम के नाम: First Name, Last Name, Email, Phone और, अगर कुछ बकाया है तो, Balance।',
    );
    // The file's headers stay English in every language, and say so.
    expect(within(dialog).getByText('First Name, Last Name, Email, Phone')).toHaveAttribute(
      'lang',
      'en',
    );
    expect(within(dialog).getByText('Balance')).toHaveAttribute('lang', 'en');

    const file = new File(['First Name,Last Name\n'], 'clients.csv', { type: 'text/csv' });
    await userEvent.upload(within(dialog).getByLabelText('CSV फ़ाइल'), file);
    expect(
      await within(dialog).findByText(
        'clients.csv में 3 पंक्तियाँ: 2 ग्राहक इम्पोर्ट के लिए तैयार, 1 समस्या ठीक करनी है।',
      ),
    ).toBeVisible();
    const errors = within(dialog).getByRole('table', { name: 'फ़ाइल में ठीक करने वाली पंक्तियाँ' });
    expect(within(errors).getAllByRole('row')[1]).toHaveTextContent(
      '3पहला नामपहला नाम कम से कम 2 अक्षर का हो',
    );
    expect(within(dialog).getByRole('combobox', { name: 'कॉलम 3' })).toHaveDisplayValue('छोड़ दें');
    expect(within(dialog).getByRole('button', { name: 'इम्पोर्ट करें' })).toBeDisabled();
  });
});

test('the offer to skip duplicates says row or rows by their number, in both languages', async () => {
  await changeLanguage('en');
  expect(translate('clients.import.skipDuplicates', { count: 1, rows: '4' })).toBe(
    'Skip the 1 row with the e-mail or phone of a client you already have (row 4)',
  );
  expect(translate('clients.import.skipDuplicates', { count: 2, rows: '4, 7' })).toBe(
    'Skip the 2 rows with the e-mail or phone of a client you already have (rows 4, 7)',
  );
  await inHindi();
  expect(translate('clients.import.skipDuplicates', { count: 1, rows: '4' })).toBe(
    'वह 1 पंक्ति छोड़ दें जिनमें आपके किसी मौजूदा ग्राहक का ईमेल या फ़ोन है (पंक्ति 4)',
  );
});
