import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Client } from '../../../shared/client-schema.ts';
import {
  type ApiRoutes,
  apiClient,
  englishFieldMessage,
  mockApi,
  renderApp,
  signedIn,
  stubLiveSocketInEachTest,
} from '../../test-utils.tsx';

stubLiveSocketInEachTest();

/*
 * Numbers stored before the panel checked them fully stay as they were; those that are not
 * real numbers (the server answers phoneValid: false) are marked wherever they are shown,
 * and the edit form asks for a real one before it saves.
 */

function client(id: string, fname: string, phone: string, phoneDisplay: string): Client {
  return { ...apiClient(id, fname, 'Verma', '100.00'), phone, phoneDisplay, version: 3 };
}

const real = client('c1', 'Asha', '+919812345678', '98123 45678');
const toCheck = { ...client('c2', 'Ravi', '+91123456789', '123456789'), phoneValid: false };

function api(extra: ApiRoutes = {}) {
  return mockApi({
    session: signedIn,
    routes: {
      'GET /api/clients': () => ({
        status: 200,
        body: { items: [real, toCheck], total: 2, totalOwed: '200.00' },
      }),
      'GET /api/clients/c1': () => ({ status: 200, body: real }),
      'GET /api/clients/c2': () => ({ status: 200, body: toCheck }),
      'GET /api/clients/c2/entries': () => ({ status: 200, body: { items: [], nextCursor: null } }),
      ...extra,
    },
  });
}

describe('numbers to check', () => {
  test('the list marks them in its rows and its cards, in words; other numbers are not marked', async () => {
    api();
    renderApp('/clients');
    const table = await screen.findByRole('table', { name: 'Clients' });
    const rows = within(table).getAllByRole('row');
    const rowOf = (name: string) => rows.find((row) => row.textContent?.includes(name));
    expect(rowOf('Ravi')).toHaveTextContent('123456789check this number');
    expect(rowOf('Asha')).toHaveTextContent('98123 45678');
    expect(rowOf('Asha')).not.toHaveTextContent('check this number');

    const cards = within(screen.getByRole('list', { name: 'Clients' })).getAllByRole('listitem');
    const cardOf = (name: string) => cards.find((card) => card.textContent?.includes(name));
    expect(cardOf('Ravi')).toHaveTextContent('123456789check this number');
    expect(cardOf('Asha')).not.toHaveTextContent('check this number');
  });

  test("the client's page marks it beside the number", async () => {
    api();
    renderApp('/client/c2');
    expect(await screen.findByText(/^Contact Phone:/)).toHaveTextContent(
      'Contact Phone: 123456789check this number',
    );
  });

  test('the edit form says why as it opens, and the message goes once a real number is typed', async () => {
    api();
    renderApp('/client/edit/c2');
    const phone = await screen.findByLabelText('Phone');
    expect(await screen.findByText(englishFieldMessage('phone.invalid'))).toBeVisible();
    await userEvent.type(phone, '01');
    expect(phone).toHaveValue('12345678901');
    expect(screen.getByText(englishFieldMessage('phone.invalid'))).toBeVisible();
    await userEvent.clear(phone);
    await userEvent.type(phone, '98123 40000');
    await waitFor(() =>
      expect(screen.queryByText(englishFieldMessage('phone.invalid'))).toBeNull(),
    );
  });

  test('the edit form refuses to save until the number is real', async () => {
    const sent: unknown[] = [];
    const { calls } = api({
      'PATCH /api/clients/c2': (init) => {
        sent.push(JSON.parse(String(init?.body)));
        return {
          status: 200,
          body: { ...toCheck, phone: '+919812340000', phoneDisplay: '98123 40000', version: 4 },
        };
      },
    });
    const { router } = renderApp('/client/edit/c2');
    const phone = await screen.findByLabelText('Phone');
    expect(phone).toHaveValue('123456789');
    // Before any Submit: the server's own words.
    expect(await screen.findByText(englishFieldMessage('phone.invalid'))).toBeVisible();
    expect(phone).toHaveAttribute('aria-invalid', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText(englishFieldMessage('phone.invalid'))).toBeVisible();
    expect(calls).not.toContain('PATCH /api/clients/c2');

    await userEvent.clear(phone);
    await userEvent.type(phone, '98123 40000');
    await waitFor(() =>
      expect(screen.queryByText(englishFieldMessage('phone.invalid'))).toBeNull(),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/client/c2'));
    expect(sent).toEqual([
      {
        fname: 'Ravi',
        lname: 'Verma',
        email: 'ravi@example.com',
        phone: '+919812340000',
        language: 'en',
        version: 3,
      },
    ]);
  });

  test('the edit form of a real number opens with no message', async () => {
    api();
    renderApp('/client/edit/c1');
    expect(await screen.findByLabelText('Phone')).toHaveValue('98123 45678');
    // Long enough for a check started on opening to have shown its message.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText(englishFieldMessage('phone.invalid'))).toBeNull();
  });
});
