import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Client } from '../../../shared/client-schema.ts';
import { changeLanguage } from '../../i18n/language.ts';
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
 * Each client has a language: that of their reminders and statement page. A new client's is
 * the operator's until the operator chooses another; the client's page says which it is.
 */

const asha: Client = { ...apiClient('a1', 'Asha', 'Verma', '100.00'), language: 'hi', version: 2 };

function api(extra: ApiRoutes = {}) {
  const sent: Record<string, unknown>[] = [];
  const body = (init: RequestInit | undefined) => {
    const parsed = JSON.parse(String(init?.body)) as Record<string, unknown>;
    sent.push(parsed);
    return parsed;
  };
  mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({ status: 200, body: { items: [], total: 0, totalOwed: '0' } }),
      'GET /api/totals': () => ({
        status: 200,
        body: {
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
          today: '2026-11-25',
        },
      }),
      'POST /api/clients': (init) => ({
        status: 201,
        body: { ...apiClient('n1', 'Ravi', 'Kumar', '0.00'), ...body(init) },
      }),
      'GET /api/clients/a1': () => ({ status: 200, body: asha }),
      'GET /api/clients/a1/entries': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      'PATCH /api/clients/a1': (init) => ({ status: 200, body: { ...asha, ...body(init) } }),
      ...extra,
    },
  });
  return { sent };
}

/** The form's own language choice (the navbar's menu is named Language too). */
async function languageIn(form: string) {
  return within(await screen.findByRole('form', { name: form })).getByRole('combobox');
}

async function fillNewClient(labels: {
  fname: string;
  lname: string;
  email: string;
  phone: string;
}) {
  await userEvent.type(await screen.findByLabelText(labels.fname), 'Ravi');
  await userEvent.type(screen.getByLabelText(labels.lname), 'Kumar');
  await userEvent.type(screen.getByLabelText(labels.email), 'ravi@example.com');
  await userEvent.type(screen.getByLabelText(labels.phone), '98470 12345');
}

describe("a client's language", () => {
  test('a new client starts in the language the operator reads (Hindi) and is sent with it', async () => {
    const { sent } = api();
    await changeLanguage('hi');
    renderApp('/client/add');
    const language = await languageIn('ग्राहक जोड़ें');
    expect(language).toHaveAccessibleName('भाषा');
    expect(language).toHaveDisplayValue('हिन्दी');
    expect(language).toHaveAccessibleDescription('ग्राहक को रिमाइंडर और खाता विवरण इसी भाषा में मिलेंगे।');
    // Each language is named in itself, marked as that language.
    expect(within(language).getByRole('option', { name: 'English' })).toHaveAttribute('lang', 'en');
    await fillNewClient({ fname: 'पहला नाम', lname: 'उपनाम', email: 'ईमेल', phone: 'फ़ोन' });
    await userEvent.click(screen.getByRole('button', { name: 'सहेजें' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ fname: 'Ravi', language: 'hi' });
  });

  test('an English-speaking operator can add a client who reads Hindi', async () => {
    const { sent } = api();
    renderApp('/client/add');
    const language = await languageIn('Add Client');
    expect(language).toHaveAccessibleName('Language');
    expect(language).toHaveDisplayValue('English');
    expect(language).toHaveAccessibleDescription(
      'The language of their reminders and statement page.',
    );
    await fillNewClient({
      fname: 'First Name',
      lname: 'Last Name',
      email: 'Email',
      phone: 'Phone',
    });
    await userEvent.selectOptions(language, 'हिन्दी');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ fname: 'Ravi', language: 'hi' });
  });

  test("the client's page names their language, and the edit form opens on it and changes it", async () => {
    const { sent } = api();
    const { router } = renderApp('/client/a1');
    const shown = await screen.findByTestId('client-language');
    expect(shown).toHaveTextContent('Language: हिन्दी');
    expect(within(shown).getByText('हिन्दी')).toHaveAttribute('lang', 'hi');

    await userEvent.click(screen.getByRole('link', { name: 'Edit' }));
    const language = await languageIn('Edit Client');
    expect(language).toHaveDisplayValue('हिन्दी');
    await userEvent.selectOptions(language, 'English');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/client/a1'));
    expect(sent).toEqual([expect.objectContaining({ language: 'en', version: 2 })]);
  });

  test('in Hindi, the page says भाषा and a refusal of the language shows under the field', async () => {
    api({
      'PATCH /api/clients/a1': () => ({
        status: 400,
        body: {
          message: 'Invalid request',
          code: 'validation',
          fieldErrors: { language: 'The language must be English (en) or Hindi (hi)' },
          fieldCodes: { language: 'language.invalid' },
        },
      }),
    });
    await changeLanguage('hi');
    renderApp('/client/a1');
    expect(await screen.findByTestId('client-language')).toHaveTextContent('भाषा: हिन्दी');
    await userEvent.click(screen.getByRole('link', { name: 'बदलें' }));
    const language = await languageIn('ग्राहक बदलें');
    await userEvent.click(screen.getByRole('button', { name: 'सहेजें' }));
    await waitFor(() => expect(language).toHaveAttribute('aria-invalid', 'true'));
    expect(language).toHaveAccessibleDescription(/भाषा अंग्रेज़ी \(en\) या हिंदी \(hi\) होनी चाहिए/);
    expect(language).not.toHaveAccessibleDescription(/must be/);
  });

  test('changed elsewhere meanwhile: the language is one of the fields to choose between', async () => {
    const theirs: Client = { ...asha, language: 'en', version: 3 };
    let calls = 0;
    const sent: unknown[] = [];
    api({
      'PATCH /api/clients/a1': (init) => {
        calls += 1;
        sent.push(JSON.parse(String(init?.body)));
        return calls === 1
          ? {
              status: 409,
              body: {
                message: 'This client was changed elsewhere',
                code: 'conflict',
                client: theirs,
              },
            }
          : { status: 200, body: theirs };
      },
    });
    renderApp('/client/edit/a1');
    await userEvent.clear(await screen.findByLabelText('First Name'));
    await userEvent.type(screen.getByLabelText('First Name'), 'Asha Devi');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));

    const conflict = await screen.findByRole('region', { name: /Someone saved this client/ });
    const group = within(conflict).getByRole('group', { name: 'Language' });
    // Not touched here: the language starts on the one saved meanwhile.
    expect(within(group).getByRole('radio', { name: /English/ })).toBeChecked();
    expect(within(group).getByRole('radio', { name: /हिन्दी/ })).not.toBeChecked();
    await userEvent.click(within(conflict).getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toMatchObject({ fname: 'Asha Devi', language: 'en', version: 3 });
  });
});
