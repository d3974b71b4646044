import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { AccountSession } from '../../../shared/account-schema.ts';
import { LANGUAGE_STORAGE_KEY } from '../../i18n/language.ts';
import { mockApi, renderApp, signedIn, stubLiveSocketInEachTest } from '../../test-utils.tsx';

stubLiveSocketInEachTest();

const operator = { user: { ...signedIn.user, role: 'operator' } };
const phone: AccountSession = {
  id: 'session-phone',
  current: false,
  device: 'Safari on iOS',
  ipAddress: '198.51.100.20',
  createdAt: '2026-11-25T04:30:00.000Z',
  lastActiveAt: '2026-11-25T06:00:00.000Z',
  expiresAt: '2026-11-26T06:30:00.000Z',
};

/** The settings page of an operator with two-factor sign-in on; `saved` holds each language sent. */
function answers() {
  const saved: unknown[] = [];
  mockApi({
    session: operator,
    routes: {
      'GET /api/account/sessions': () => ({ status: 200, body: { items: [phone] } }),
      'GET /api/account/two-factor': () => ({
        status: 200,
        body: { enabled: true, backupCodesLeft: 3 },
      }),
      'PUT /api/account/preferences': (init) => {
        const body = JSON.parse(String(init?.body));
        saved.push(body);
        return { status: 200, body };
      },
    },
  });
  return { saved };
}

async function accountSection(heading: string) {
  const title = await screen.findByRole('heading', { name: heading, level: 2 });
  const card = title.closest('.card');
  if (!(card instanceof HTMLElement)) throw new Error(`no card under "${heading}"`);
  return card;
}

describe('the language in the account section of the settings page', () => {
  test('Hindi chosen there shows the page in Hindi at once, keeps it on the account and in the browser, and English comes back the same way', async () => {
    const { saved } = answers();
    renderApp('/settings');
    const account = await accountSection('Account');
    const menu = within(account).getByRole('combobox', { name: 'Language' });
    expect(menu).toHaveValue('en');
    expect(menu).toHaveAccessibleDescription(
      "The panel's language on every device you sign in on.",
    );

    await userEvent.selectOptions(menu, 'hi');
    const hindi = await accountSection('खाता');
    expect(screen.getByRole('heading', { name: 'सेटिंग्स बदलें', level: 1 })).toBeVisible();
    await waitFor(() => expect(document.title).toBe('सेटिंग्स बदलें · क्लाइंट पैनल'));
    expect(document.documentElement.lang).toBe('hi');
    expect(within(hindi).getByRole('form', { name: 'ईमेल पता बदलें' })).toBeVisible();
    // A count (ICU plural) and a date, in Hindi.
    expect(within(hindi).getByText(/आपके पास 3 बैकअप कोड बचे हैं।/)).toBeVisible();
    const sessions = within(hindi).getByRole('table', { name: 'चालू सत्र' });
    expect(within(sessions).getAllByText(/25 नवंबर 2026/)).toHaveLength(2);
    expect(
      within(sessions).getByRole('button', { name: /^iOS पर Safari का सत्र खत्म करें/ }),
    ).toBeVisible();
    // Drawn again in Hindi, the page keeps the keyboard's place on the menu.
    const hindiMenu = within(hindi).getByRole('combobox', { name: 'भाषा' });
    expect(hindiMenu).toHaveValue('hi');
    expect(hindiMenu).toHaveFocus();
    await waitFor(() => expect(saved).toEqual([{ language: 'hi' }]));
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('hi');
    // The navbar's menu says the same.
    expect(screen.getAllByRole('combobox', { name: 'भाषा' })).toHaveLength(2);

    await userEvent.selectOptions(hindiMenu, 'en');
    const english = await accountSection('Account');
    expect(screen.getByRole('heading', { name: 'Edit Settings', level: 1 })).toBeVisible();
    expect(within(english).getByText(/You have 3 backup codes left\./)).toBeVisible();
    expect(within(english).getByRole('combobox', { name: 'Language' })).toHaveValue('en');
    expect(document.documentElement.lang).toBe('en');
    await waitFor(() => expect(saved).toEqual([{ language: 'hi' }, { language: 'en' }]));
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
  });
});
