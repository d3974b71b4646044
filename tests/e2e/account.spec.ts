import type { Page } from '@playwright/test';
import { expectAccessible } from './accessibility.ts';
import { expect, login, logout, newEmail, PASSWORD, register, test } from './fixtures.ts';

async function openAccount(page: Page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
}

test('an operator changes their password, then signs in with the new one and not the old', async ({
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 400/);
  consoleErrors.allow(/status of 401/);
  const email = await register(page);
  await openAccount(page);
  await expectAccessible(page, 'the settings page with the account section');
  const form = page.getByRole('form', { name: 'Change password' });

  // A wrong current password shows under its field, and changes nothing.
  await form.getByLabel('Current password').fill('not my password');
  await form.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
  await form.getByLabel('Repeat the new password').fill('a brand new passphrase');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('This is not your current password')).toBeVisible();
  await expectAccessible(page, 'the password form with an error');

  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Your password is changed' }),
  ).toBeVisible();
  await expect(form.getByLabel('Current password')).toHaveValue('');

  await logout(page);
  await login(page, email, PASSWORD);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await login(page, email, 'a brand new passphrase');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a new e-mail address shows in the navbar at once and is the one to sign in with', async ({
  page,
}) => {
  // The theme follows the system until chosen: this page is dark.
  await page.emulateMedia({ colorScheme: 'dark' });
  await register(page);
  await openAccount(page);
  const newAddress = newEmail('renamed');
  const form = page.getByRole('form', { name: 'Change e-mail address' });
  await form.getByLabel('New e-mail address').fill(newAddress.toUpperCase());
  await form.getByLabel('Current password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Change e-mail address' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `Your e-mail address is now ${newAddress}` }),
  ).toBeVisible();
  await expect(page.getByTestId('navbar-email')).toHaveText(newAddress);
  await expectAccessible(page, 'the account section (dark theme)');
  await logout(page);
  await login(page, newAddress, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("signing out everywhere ends this browser's session and another browser's", async ({
  browser,
  page,
}) => {
  const email = await register(page);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await login(other, email, PASSWORD);
  await expect(other).toHaveURL(/\/dashboard$/);

  await openAccount(page);
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
  await expect(dialog).toContainText('in this browser too');
  await expectAccessible(page, 'the sign-out-everywhere dialog');
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'You are signed out everywhere: 2 sessions ended' }),
  ).toBeVisible();
  // The other browser's open page learns through its live socket, without a reload.
  await expect(other).toHaveURL(/\/login$/);
  // Nothing of either session is left: a reload stays signed out.
  await other.reload();
  await expect(other).toHaveURL(/\/login$/);
  await elsewhere.close();
});

test("an operator sees where they are signed in and ends another browser's session with their password", async ({
  browser,
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 400/);
  const email = await register(page);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await login(other, email, PASSWORD);
  await expect(other).toHaveURL(/\/dashboard$/);

  await openAccount(page);
  const table = page.getByRole('table', { name: 'Signed-in sessions' });
  const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'This device' })).toContainText('Chrome on Linux');
  const otherRow = rows.filter({ hasNotText: 'This device' });
  await expect(otherRow).toContainText('127.0.0.1');
  await expectAccessible(page, 'the signed-in sessions list');

  await otherRow.getByRole('button', { name: /^End the session of Chrome on Linux/ }).click();
  const dialog = page.getByRole('dialog', { name: 'End this session?' });
  await dialog.getByLabel('Current password').fill('not my password');
  await dialog.getByRole('button', { name: 'End session' }).click();
  await expect(dialog.getByText('This is not your current password')).toBeVisible();
  await expectAccessible(page, 'the end-session dialog with a wrong password');
  await expect(other).toHaveURL(/\/dashboard$/);

  await dialog.getByLabel('Current password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'End session' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The session ended' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'End all other sessions' })).toBeDisabled();
  // The row's "End" went with it: the section's heading has the focus, not the page's start.
  await expect(page.getByRole('heading', { name: 'Signed-in sessions' })).toBeFocused();

  // The other browser's open page learns through its live socket; a reload stays signed out.
  await expect(other).toHaveURL(/\/login$/);
  await other.reload();
  await expect(other).toHaveURL(/\/login$/);
  // This browser's session was not touched.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Signed-in sessions' })).toBeVisible();
  await expect(rows).toHaveCount(1);
  await elsewhere.close();
});
