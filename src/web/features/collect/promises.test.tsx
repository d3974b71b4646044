import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Client } from '../../../shared/client-schema.ts';
import type { PromiseToPay } from '../../../shared/dues-schema.ts';
import { changeLanguage } from '../../i18n/language.ts';
import {
  apiClient,
  liveChannel,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const TODAY = '2026-11-25';

// The browser's day is not the panel's (another time zone): the panel's is the one that counts.
beforeEach(() => {
  vi.setSystemTime(new Date('2026-11-20T12:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

function promise(id: string, extra: Partial<PromiseToPay> = {}): PromiseToPay {
  return {
    id,
    amount: '5000.00',
    by: '2026-11-28',
    note: '',
    status: 'open',
    paid: '0.00',
    createdAt: '2026-11-20T10:00:00.000Z',
    createdBy: { id: 'u1', email: 'op@example.com' },
    ...extra,
  };
}

const owing: Client = {
  ...apiClient('a1', 'Asha', 'Verma', '5000.00'),
  overdue: '3000.00',
  overdueSince: '2026-09-12',
};

/** Asha's page and her promises as the server holds them; what the page sent is recorded. */
function promiseApi(
  start: { client?: Client; promises?: PromiseToPay[]; kept?: number; decided?: number } = {},
) {
  let client = start.client ?? owing;
  let promises = start.promises ?? [];
  const record = { kept: start.kept ?? 0, decided: start.decided ?? 0 };
  const sent: unknown[] = [];
  let refusal: { status: number; body: unknown } | null = null;
  const api = mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients/a1': () => ({ status: 200, body: client }),
      'GET /api/clients/a1/entries': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      'GET /api/clients/a1/claims': () => ({ status: 200, body: { items: [] } }),
      'GET /api/clients/a1/promises': () => ({
        status: 200,
        body: { items: promises, ...record },
      }),
      'GET /api/clients/a1/reminders/preview': () => ({
        status: 200,
        body: { message: 'Namaste Asha, pay here: (statement link)', unavailable: {} },
      }),
      'GET /api/totals': () => ({
        status: 200,
        body: {
          clients: 1,
          totalOwed: client.balance,
          owing: client.balance,
          owingClients: 1,
          credit: '0.00',
          creditClients: 0,
          pendingClaims: 0,
          overdue: client.overdue,
          collectedThisMonth: '0.00',
          collectedLastMonth: '0.00',
          today: TODAY,
        },
      }),
      'POST /api/clients/a1/promises': (init) => {
        const body = JSON.parse(String(init?.body)) as {
          amount: string;
          by: string;
          note?: string;
        };
        sent.push(body);
        if (refusal) return refusal;
        const made = promise(`p${promises.length + 1}`, {
          amount: body.amount,
          by: body.by,
          note: body.note ?? '',
          createdAt: '2026-11-25T10:00:00.000Z',
        });
        promises = [
          made,
          ...promises.map((p) => (p.status === 'open' ? { ...p, status: 'replaced' as const } : p)),
        ];
        client = {
          ...client,
          version: client.version + 1,
          promise: { id: made.id, amount: made.amount, by: made.by, status: 'open' },
        };
        return { status: 201, body: made };
      },
    },
  });
  return {
    ...api,
    sent,
    refuse(next: { status: number; body: unknown }) {
      refusal = next;
    },
  };
}

async function openPromiseDialog() {
  await userEvent.click(await screen.findByRole('button', { name: 'Promise from Asha Verma' }));
  return screen.findByRole('dialog', { name: 'Promise to pay: Asha Verma' });
}

describe("recording a client's promise to pay", () => {
  test('the dialog offers what is overdue by a week from the panel’s today, sends it and the page shows it', async () => {
    const { sent } = promiseApi();
    renderApp('/client/a1');
    const dialog = await openPromiseDialog();
    expect(within(dialog).getByLabelText('Amount (₹)')).toHaveValue('3000.00');
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Will pay by')).toHaveValue('2026-12-02'),
    );
    await userEvent.type(within(dialog).getByLabelText('Note (optional)'), 'After salary');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save promise' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ amount: '3000.00', by: '2026-12-02', note: 'After salary' }]);
    expect(await screen.findByText('Promised: ₹3,000.00 by 2 Dec: saved')).toBeVisible();
    const section = screen.getByRole('region', { name: 'Promises to pay' });
    expect(await within(section).findByText('Promised: ₹3,000.00 by 2 Dec')).toBeVisible();
    expect(await within(section).findAllByText('After salary')).not.toHaveLength(0);
  });

  test('with nothing overdue the dialog offers the whole balance', async () => {
    promiseApi({ client: apiClient('a1', 'Asha', 'Verma', '1200.50') });
    renderApp('/client/a1');
    const dialog = await openPromiseDialog();
    expect(within(dialog).getByLabelText('Amount (₹)')).toHaveValue('1200.50');
  });

  test('a date before today is refused before sending, and the server’s own field messages show under their fields', async () => {
    const { sent, refuse } = promiseApi();
    renderApp('/client/a1');
    const dialog = await openPromiseDialog();
    const by = within(dialog).getByLabelText('Will pay by');
    await waitFor(() => expect(by).toHaveValue('2026-12-02'));
    await userEvent.clear(by);
    await userEvent.type(by, '2026-11-24');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save promise' }));
    expect(by).toHaveAccessibleDescription('The promised date must be today or later');
    expect(sent).toEqual([]);

    refuse({
      status: 400,
      body: {
        message: 'Check the promise',
        fieldErrors: { amount: 'Amount must be at most ₹1,00,00,000.00' },
      },
    });
    await userEvent.clear(by);
    await userEvent.type(by, '2026-11-30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save promise' }));
    expect(await within(dialog).findByLabelText('Amount (₹)')).toHaveAccessibleDescription(
      'Amount must be at most ₹1,00,00,000.00',
    );
    expect(await screen.findByText(/The promise was not saved/)).toBeVisible();
    expect(screen.getByRole('dialog', { name: 'Promise to pay: Asha Verma' })).toBeVisible();
  });
});

/** Asha broke her last promise (₹1,000.00 paid of it) and kept 3 of 4 before. */
const brokenAfterOthers = {
  client: {
    ...owing,
    promise: { id: 'p4', amount: '5000.00', by: '2026-11-24', status: 'broken' as const },
  },
  promises: [
    promise('p4', { by: '2026-11-24', status: 'broken', note: 'Said Monday', paid: '1000.00' }),
    promise('p3', { amount: '800.00', by: '2026-10-01', status: 'kept', paid: '800.00' }),
  ],
  kept: 3,
  decided: 4,
};

describe("a client's promises on their page", () => {
  test('a broken promise shows as broken with its note, beside the record and the last promises', async () => {
    promiseApi(brokenAfterOthers);
    renderApp('/client/a1');
    const section = await screen.findByRole('region', { name: 'Promises to pay' });
    expect(within(section).getByText('Promised: ₹5,000.00 by 24 Nov')).toBeVisible();
    expect(within(section).getByText('Not paid by then: the promise is broken.')).toBeVisible();
    expect(await within(section).findByText('Kept 3 of 4 promises')).toBeVisible();
    const history = within(section).getByRole('list', { name: 'Promises made' });
    const items = within(history).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('₹5,000.00 by 24 NovBroken₹1,000.00 paid towards it');
    expect(items[1]).toHaveTextContent('₹800.00 by 1 OctKept');
    // The current promise's note, read from its history.
    expect(within(section).getAllByText('Said Monday')).toHaveLength(2);
  });

  test('a promise made on another device shows at once', async () => {
    promiseApi();
    renderApp('/client/a1');
    const section = await screen.findByRole('region', { name: 'Promises to pay' });
    expect(await within(section).findByText('No promise kept or broken yet')).toBeVisible();
    const made = promise('p9', { amount: '700.00', by: '2026-11-30' });
    const socket = await liveChannel();
    act(() =>
      socket.onmessage?.({
        data: JSON.stringify({
          type: 'promise.created',
          promise: made,
          client: {
            ...owing,
            version: 2,
            promise: { id: 'p9', amount: '700.00', by: '2026-11-30', status: 'open' },
          },
        }),
      }),
    );
    expect(await within(section).findByText('Promised: ₹700.00 by 30 Nov')).toBeVisible();
  });
});

describe('a promise in the reminder dialog', () => {
  test('the reminder shows the client’s promise, and records a new one made on the call', async () => {
    const { sent } = promiseApi({
      client: {
        ...owing,
        promise: { id: 'p1', amount: '2000.00', by: '2026-11-24', status: 'broken' },
      },
    });
    renderApp('/client/a1');
    await userEvent.click(await screen.findByRole('button', { name: 'Remind Asha Verma' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remind Asha Verma' });
    const part = within(dialog).getByRole('region', { name: 'Promise to pay' });
    expect(within(part).getByText('Promised: ₹2,000.00 by 24 Nov')).toBeVisible();
    expect(within(part).getByText('Broken')).toBeVisible();

    await userEvent.click(within(part).getByRole('button', { name: 'Record a new promise' }));
    const amount = within(part).getByLabelText('Amount (₹)');
    await userEvent.clear(amount);
    await userEvent.type(amount, '1500');
    await waitFor(() =>
      expect(within(part).getByLabelText('Will pay by')).toHaveValue('2026-12-02'),
    );
    await userEvent.click(within(part).getByRole('button', { name: 'Save promise' }));

    expect(await within(part).findByText('Promised: ₹1,500.00 by 2 Dec')).toBeVisible();
    expect(within(part).getByText('Open')).toBeVisible();
    expect(sent).toEqual([{ amount: '1500.00', by: '2026-12-02' }]);
    // The reminder stays open: the operator may still send it.
    expect(within(dialog).getByRole('button', { name: 'WhatsApp' })).toBeVisible();
  });
});

describe('promises in Hindi', () => {
  test('a promise reads in Hindi with its date, its state and the record; saving one says so in Hindi', async () => {
    await changeLanguage('hi');
    const { refuse } = promiseApi(brokenAfterOthers);
    renderApp('/client/a1');
    const section = await screen.findByRole('region', { name: 'भुगतान के वादे' });
    expect(within(section).getByText('₹5,000.00 का वादा, 24 नवंबर तक')).toBeVisible();
    expect(within(section).getByText('तय तारीख तक भुगतान नहीं हुआ: वादा टूट गया।')).toBeVisible();
    expect(await within(section).findByText('पूरे हुए वादे: 4 में से 3')).toBeVisible();
    const items = within(within(section).getByRole('list', { name: 'किए गए वादे' })).getAllByRole(
      'listitem',
    );
    expect(items[0]).toHaveTextContent('₹5,000.00, 24 नवंबर तकटूटाइसमें से ₹1,000.00 चुकाया');
    expect(items[1]).toHaveTextContent('₹800.00, 1 अक्टूबर तकपूरा हुआ');
    expect(items[1]).toHaveTextContent('op@example.com ने दर्ज किया, 20 नवंबर 2026 को');

    await userEvent.click(within(section).getByRole('button', { name: 'Asha Verma का वादा' }));
    const dialog = await screen.findByRole('dialog', { name: 'भुगतान का वादा: Asha Verma' });
    expect(
      within(dialog).getByText('यह पिछले टूटे वादे की जगह लेगा (₹5,000.00 का वादा, 24 नवंबर तक)।'),
    ).toBeVisible();
    await waitFor(() =>
      expect(within(dialog).getByLabelText('कब तक देंगे')).toHaveValue('2026-12-02'),
    );
    refuse({ status: 500, body: { message: 'boom' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'वादा सहेजें' }));
    expect(await screen.findByText(/^वादा सहेजा नहीं गया: /)).toBeVisible();
  });

  test('a promise saved in Hindi is said with its Hindi date', async () => {
    await changeLanguage('hi');
    promiseApi();
    renderApp('/client/a1');
    await userEvent.click(await screen.findByRole('button', { name: 'Asha Verma का वादा' }));
    const dialog = await screen.findByRole('dialog', { name: 'भुगतान का वादा: Asha Verma' });
    expect(within(dialog).getByLabelText('राशि (₹)')).toHaveValue('3000.00');
    await waitFor(() =>
      expect(within(dialog).getByLabelText('कब तक देंगे')).toHaveValue('2026-12-02'),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'वादा सहेजें' }));
    expect(await screen.findByText('₹3,000.00 का वादा, 2 दिसंबर तक: सहेजा गया')).toBeVisible();
  });
});
