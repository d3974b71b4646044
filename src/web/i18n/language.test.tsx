import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { mockApi, renderApp, signedIn } from '../test-utils.tsx';
import { LANGUAGE_STORAGE_KEY } from './language.ts';

test('choosing Hindi before sign-in changes the page at once, <html lang>, and is kept in the browser', async () => {
  mockApi();
  renderApp('/login');
  await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'hi');
  expect(await screen.findByRole('link', { name: 'लॉग इन' })).toBeInTheDocument();
  expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  expect(document.documentElement.lang).toBe('hi');
  expect(screen.getByRole('combobox', { name: 'भाषा' })).toHaveValue('hi');
  // Drawn again in Hindi, the page keeps the keyboard's place on the menu.
  expect(screen.getByRole('combobox', { name: 'भाषा' })).toHaveFocus();
  expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('hi');
});

test('a signed-in operator’s choice is saved on their account', async () => {
  const saved: unknown[] = [];
  mockApi({
    session: signedIn,
    routes: {
      'PUT /api/account/preferences': (init) => {
        saved.push(JSON.parse(String(init?.body)));
        return { status: 200, body: { language: 'hi' } };
      },
    },
  });
  renderApp('/settings-that-is-not-a-page');
  await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'hi');
  await waitFor(() => expect(saved).toEqual([{ language: 'hi' }]));
  expect(await screen.findByRole('button', { name: 'लॉग आउट' })).toBeInTheDocument();
});

test('signing in brings the account’s language to this browser', async () => {
  mockApi({ session: { user: { ...signedIn.user, language: 'hi' } } });
  renderApp('/not-a-page');
  expect(await screen.findByRole('button', { name: 'लॉग आउट' })).toBeInTheDocument();
  expect(document.documentElement.lang).toBe('hi');
});

test('a language the account cannot save is said, in the language chosen', async () => {
  mockApi({
    session: signedIn,
    routes: { 'PUT /api/account/preferences': () => ({ status: 500, body: { message: 'boom' } }) },
  });
  renderApp('/not-a-page');
  await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'hi');
  expect(await screen.findByText(/भाषा सहेजी नहीं जा सकी/)).toBeInTheDocument();
});

test('an account that already has a language can choose the other one (it is not put back)', async () => {
  mockApi({
    session: { user: { ...signedIn.user, language: 'en' } },
    routes: { 'PUT /api/account/preferences': () => ({ status: 200, body: { language: 'hi' } }) },
  });
  renderApp('/not-a-page');
  await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'hi');
  expect(await screen.findByRole('button', { name: 'लॉग आउट' })).toBeInTheDocument();
  // Long enough for the redrawn layout to have applied anything it would.
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(document.documentElement.lang).toBe('hi');
  expect(screen.getByRole('button', { name: 'लॉग आउट' })).toBeInTheDocument();
});
