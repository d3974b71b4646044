import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Client } from '../../../shared/client-schema.ts';
import { changeLanguage } from '../../i18n/language.ts';
import {
  apiClient,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const asha = apiClient('a1', 'Asha', 'Verma', '1500.00');
const ravi: Client = { ...apiClient('b2', 'Ravi', 'Kumar', '50.00'), email: '' };
/** A client who reads Hindi: the server fills their reminder from the Hindi template. */
const meera: Client = { ...apiClient('c3', 'Meera', 'Pillai', '700.00'), language: 'hi' };
/** A client in credit: nothing to remind them of. */
const kiran = apiClient('d4', 'Kiran', 'Rao', '-250.00');

function previewOf(client: Client) {
  return {
    status: 200,
    body: {
      message:
        client.language === 'hi'
          ? `नमस्ते ${client.fname} जी, भुगतान यहाँ करें: (खाता विवरण का लिंक)`
          : `Namaste ${client.fname}, pay here: (statement link)`,
      unavailable: client.email ? {} : { email: 'No e-mail address for this client' },
    },
  };
}

/** The operator's collection settings: the business's name and UPI ID as given. */
function collectionSettings(businessName: string, upiId: string) {
  const template = {
    reminderMessage: 'Namaste {name}, a reminder from {business}: {amount}. {link}',
    reminderEmailSubject: 'Payment reminder from {business}',
  };
  return {
    status: 200,
    body: {
      businessName,
      upiId,
      payeeName: '',
      otherWaysToPay: '',
      ...template,
      templates: { hi: template },
      paymentTermsDays: 0,
    },
  };
}

function remindApi(settings = collectionSettings('Verma Stores', 'verma@okaxis')) {
  const sent: { client: string; body: unknown }[] = [];
  const post = (client: Client) => (init: RequestInit | undefined) => {
    const body = JSON.parse(String(init?.body)) as { channel: string; message?: string };
    sent.push({ client: client.id, body });
    // A refusal of the server's own that the browser's check does not foresee.
    if (body.message?.includes('REFUSED')) {
      return {
        status: 400,
        body: {
          message: 'Invalid request',
          code: 'validation',
          fieldErrors: { message: 'Message must be at most 2,000 characters' },
          fieldCodes: { message: 'message.too-long' },
        },
      };
    }
    const message = (body.message ?? `Namaste ${client.fname}, pay here: {link}`).replace(
      '{link}',
      'https://panel.example/s/tok',
    );
    return {
      status: 201,
      body: {
        id: `r${sent.length}`,
        channel: body.channel,
        sentAt: '2026-03-05T10:00:00.000Z',
        message,
        url:
          body.channel === 'copy'
            ? null
            : `https://wa.me/919847012345?text=${encodeURIComponent(message)}`,
      },
    };
  };
  mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({
        status: 200,
        body: { items: [asha, ravi], total: 2, totalOwed: '1550.00' },
      }),
      'GET /api/totals': () => ({
        status: 200,
        body: { owed: '1550.00', credit: '0.00', net: '1550.00', clients: 2, pendingClaims: 0 },
      }),
      'GET /api/clients/a1': () => ({ status: 200, body: asha }),
      'GET /api/clients/a1/entries': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      'GET /api/clients/a1/reminders/preview': () => previewOf(asha),
      'GET /api/clients/b2/reminders/preview': () => previewOf(ravi),
      'POST /api/clients/a1/reminders': post(asha),
      'POST /api/clients/b2/reminders': post(ravi),
      'GET /api/clients/c3': () => ({ status: 200, body: meera }),
      'GET /api/clients/c3/entries': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      'GET /api/clients/c3/reminders/preview': () => previewOf(meera),
      'POST /api/clients/c3/reminders': post(meera),
      'GET /api/clients/d4': () => ({ status: 200, body: kiran }),
      'GET /api/clients/d4/entries': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      'GET /api/clients/d4/reminders/preview': () => previewOf(kiran),
      'GET /api/collection-settings': () => settings,
    },
  });
  return { sent };
}

/** Opens Asha's Remind dialog from her page: the dialog, and its message box once filled. */
async function openRemind(user: ReturnType<typeof userEvent.setup>) {
  renderApp('/client/a1');
  await user.click(await screen.findByRole('button', { name: 'Remind Asha Verma' }));
  const dialog = await screen.findByRole('dialog', { name: 'Remind Asha Verma' });
  return { dialog, message: await within(dialog).findByLabelText('Message') };
}

describe('reminding a client', () => {
  test('the filled message is recorded as a WhatsApp reminder, then opened by a link the operator taps', async () => {
    const { sent } = remindApi();
    renderApp('/client/a1');
    await userEvent.click(await screen.findByRole('button', { name: 'Remind Asha Verma' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remind Asha Verma' });
    expect(await within(dialog).findByLabelText('Message')).toHaveValue(
      'Namaste Asha, pay here: (statement link)',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'WhatsApp' }));
    const open = await within(dialog).findByRole('link', { name: 'Open WhatsApp' });
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener');
    expect(open.getAttribute('href')).toBe(
      `https://wa.me/919847012345?text=${encodeURIComponent('Namaste Asha, pay here: https://panel.example/s/tok')}`,
    );
    // Unchanged: the server fills the template, and makes the link.
    expect(sent).toEqual([{ client: 'a1', body: { channel: 'whatsapp' } }]);
  });

  test("a client who owes nothing: the dialog says the message's amount is ₹0.00 before anything is sent", async () => {
    const { sent } = remindApi();
    renderApp('/client/d4');
    await userEvent.click(await screen.findByRole('button', { name: 'Remind Kiran Rao' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remind Kiran Rao' });
    expect(
      await within(dialog).findByText(/Kiran owes nothing now, so the message's amount is ₹0.00/),
    ).toBeVisible();
    expect(sent).toEqual([]);
  });

  test('a client who owes is reminded with no such notice', async () => {
    remindApi();
    renderApp('/client/a1');
    await userEvent.click(await screen.findByRole('button', { name: 'Remind Asha Verma' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remind Asha Verma' });
    await within(dialog).findByLabelText('Message');
    expect(within(dialog).queryByText(/owes nothing/)).toBeNull();
  });

  test('the dialog says what the settings lack: a business name the message would name, a UPI ID to pay by', async () => {
    remindApi(collectionSettings('', ''));
    renderApp('/client/a1');
    await userEvent.click(await screen.findByRole('button', { name: 'Remind Asha Verma' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remind Asha Verma' });
    expect(
      await within(dialog).findByText(/^No business name is set, so the message does not say who/),
    ).toBeVisible();
    expect(
      within(dialog).getByText(/^No UPI ID is set, so the statement link offers no/),
    ).toBeVisible();
  });

  test('an edited message is sent as typed, the statement link kept as {link}; Copy copies what was recorded', async () => {
    const { sent } = remindApi();
    const user = userEvent.setup();
    const { dialog, message } = await openRemind(user);
    await user.clear(message);
    await user.type(message, 'Please pay: (statement link)');
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await within(dialog).findByText('Copied')).toBeVisible();
    expect(await navigator.clipboard.readText()).toBe('Please pay: https://panel.example/s/tok');
    expect(sent).toEqual([
      { client: 'a1', body: { channel: 'copy', message: 'Please pay: {link}' } },
    ]);
  });
});

describe('a message that cannot be sent', () => {
  test('an unknown placeholder or an emptied message is refused under the message, and nothing is sent', async () => {
    const { sent } = remindApi();
    const user = userEvent.setup();
    const { dialog, message } = await openRemind(user);
    await user.clear(message);
    await user.type(message, 'Please pay {{amont}');
    await user.click(within(dialog).getByRole('button', { name: 'WhatsApp' }));
    await waitFor(() => expect(message).toHaveAttribute('aria-invalid', 'true'));
    expect(message).toHaveAccessibleDescription(/Unknown placeholder \{amont\}: use \{name\}/);
    expect(message).toHaveFocus();
    // Emptied, it is not swapped for the standard message behind the operator's back.
    await user.clear(message);
    expect(message).toHaveAttribute('aria-invalid', 'false');
    await user.click(within(dialog).getByRole('button', { name: 'SMS' }));
    await waitFor(() => expect(message).toHaveAccessibleDescription(/Message is required/));
    expect(sent).toEqual([]);
    expect(within(dialog).queryByRole('link', { name: /^Open/ })).toBeNull();
  });

  test("the server's refusal shows under the message, and the link of an earlier try goes away", async () => {
    const { sent } = remindApi();
    const user = userEvent.setup();
    const { dialog, message } = await openRemind(user);
    await user.click(within(dialog).getByRole('button', { name: 'SMS' }));
    expect(await within(dialog).findByRole('link', { name: 'Open SMS' })).toBeVisible();
    // Edited: the link made for the text as it was goes at once.
    await user.type(message, ' REFUSED');
    expect(within(dialog).queryByRole('link', { name: 'Open SMS' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'WhatsApp' }));
    await waitFor(() => expect(message).toHaveAttribute('aria-invalid', 'true'));
    expect(message).toHaveAccessibleDescription(/Message must be at most 2,000 characters/);
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/The reminder was not made/);
    expect(within(dialog).queryByRole('link', { name: /^Open/ })).toBeNull();
    expect(sent.map((each) => each.body)).toEqual([
      { channel: 'sms' },
      { channel: 'whatsapp', message: 'Namaste Asha, pay here: {link} REFUSED' },
    ]);
  });
});

describe("a reminder in the client's language", () => {
  test('a Hindi client’s reminder is previewed in Hindi, marked so, and its link’s stand-in kept as {link} when edited', async () => {
    const { sent } = remindApi();
    renderApp('/client/c3');
    await userEvent.click(await screen.findByRole('button', { name: 'Remind Meera Pillai' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remind Meera Pillai' });
    const message = await within(dialog).findByLabelText('Message');
    expect(message).toHaveValue('नमस्ते Meera जी, भुगतान यहाँ करें: (खाता विवरण का लिंक)');
    expect(message).toHaveAttribute('lang', 'hi');
    expect(message).toHaveAccessibleDescription(
      "In the client's language: हिन्दी (खाता विवरण का लिंक) becomes a new statement link when the reminder is made.",
    );
    expect(within(dialog).getByText('हिन्दी')).toHaveAttribute('lang', 'hi');
    await userEvent.clear(message);
    await userEvent.type(message, 'कृपया भुगतान करें: (खाता विवरण का लिंक)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'WhatsApp' }));
    await within(dialog).findByRole('link', { name: 'Open WhatsApp' });
    expect(sent).toEqual([
      { client: 'c3', body: { channel: 'whatsapp', message: 'कृपया भुगतान करें: {link}' } },
    ]);
  });

  test('in Hindi, the dialog says which language the client reads; an English client’s is English', async () => {
    remindApi();
    await changeLanguage('hi');
    renderApp('/client/a1');
    await userEvent.click(await screen.findByRole('button', { name: 'Asha Verma को रिमाइंडर भेजें' }));
    const dialog = await screen.findByRole('dialog', { name: 'Asha Verma को रिमाइंडर' });
    const message = await within(dialog).findByLabelText('संदेश');
    expect(message).toHaveAttribute('lang', 'en');
    expect(message).toHaveAccessibleDescription(
      'ग्राहक की भाषा में: English रिमाइंडर बनते ही (statement link) की जगह खाता विवरण का नया लिंक आ जाएगा।',
    );
  });
});

describe('reminding the picked clients one after another', () => {
  test('the next client opens when the operator comes back; a channel the client lacks is disabled with its reason', async () => {
    const { sent } = remindApi();
    renderApp('/clients');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select all on this page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remind selected' }));
    // A comma between the name and the count: Chrome joins inline text without a space.
    let dialog = await screen.findByRole('dialog', { name: /^Remind Asha Verma ?, 1 of 2$/ });
    await userEvent.click(await within(dialog).findByRole('button', { name: 'WhatsApp' }));
    const open = await within(dialog).findByRole('link', { name: 'Open WhatsApp' });
    open.addEventListener('click', (event) => event.preventDefault());
    await userEvent.click(open);
    window.dispatchEvent(new Event('focus'));

    dialog = await screen.findByRole('dialog', { name: /^Remind Ravi Kumar ?, 2 of 2$/ });
    const email = await within(dialog).findByRole('button', { name: 'E-mail' });
    expect(email).toBeDisabled();
    expect(email).toHaveAccessibleDescription('E-mail: No e-mail address for this client');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ client: 'a1', body: { channel: 'whatsapp' } }]);
  });

  test('Skip passes a client by and Stop ends the round', async () => {
    const { sent } = remindApi();
    renderApp('/clients');
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select all on this page' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remind selected' }));
    const first = await screen.findByRole('dialog', { name: /Remind Asha Verma/ });
    // Coming back without having sent anything does not move on.
    window.dispatchEvent(new Event('focus'));
    await userEvent.click(within(first).getByRole('button', { name: 'Skip' }));
    const second = await screen.findByRole('dialog', { name: /Remind Ravi Kumar/ });
    await userEvent.click(within(second).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([]);
  });
});
