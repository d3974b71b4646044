import type { Browser, Page } from '@playwright/test';
import { expectAccessible } from './accessibility.ts';
import { ADMIN, expect, login, logout, PASSWORD, register, test } from './fixtures.ts';

/** A page of its own, signed in as the administrator, on the settings page. */
async function administratorOnSettings(browser: Browser, dark = false): Promise<Page> {
  const context = await browser.newContext({ colorScheme: dark ? 'dark' : 'light' });
  const page = await context.newPage();
  await login(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('table', { name: 'Operators' })).toBeVisible();
  return page;
}

test('an administrator signs one operator out: their open page goes to the sign-in page at once', async ({
  browser,
  page,
}) => {
  const email = await register(page);
  const admin = await administratorOnSettings(browser, true);
  await expectAccessible(admin, 'the operators panel (dark theme)');
  const operators = admin.getByRole('table', { name: 'Operators' });
  await operators.getByRole('button', { name: `Sign out ${email}` }).click();
  const dialog = admin.getByRole('dialog', { name: `Sign out ${email}?` });
  await expect(dialog).toContainText('must sign in again');
  await expectAccessible(admin, 'the sign-out dialog (dark theme)');
  await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(
    admin.getByRole('status').filter({ hasText: `${email} is signed out: 1 session ended` }),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  // The operator's tab learns through its live socket, without a reload.
  await expect(page).toHaveURL(/\/login$/);
  await admin.context().close();
});

test("signing every operator out keeps the administrator's own session", async ({
  browser,
  page,
}) => {
  await register(page);
  const admin = await administratorOnSettings(browser);
  await admin.getByRole('button', { name: 'Sign out every operator' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Sign out every operator?' });
  await expect(dialog).toContainText('Every session but this one ends');
  // Cancel changes nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await admin.getByRole('button', { name: 'Sign out every operator' }).click();
  await dialog.getByRole('button', { name: 'Sign out everyone' }).click();
  await expect(
    admin
      .getByRole('status')
      .filter({ hasText: /^Every operator is signed out: \d+ sessions? ended/ }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  // The administrator is still signed in and can keep working.
  await admin.reload();
  await expect(admin.getByRole('table', { name: 'Operators' })).toBeVisible();
  await admin.context().close();
});

test('a reset link lets a forgetful operator choose a new password, once', async ({
  browser,
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 400/);
  consoleErrors.allow(/status of 401/);
  const email = await register(page);
  const admin = await administratorOnSettings(browser);
  await admin
    .getByRole('table', { name: 'Operators' })
    .getByRole('button', { name: `Password reset link for ${email}` })
    .click();
  const dialog = admin.getByRole('dialog', { name: `Password reset link for ${email}` });
  await expect(dialog).toContainText('you will not see or choose it');
  await dialog.getByRole('button', { name: 'Issue link' }).click();
  const linkField = dialog.getByLabel(`Reset link for ${email}`);
  await expect(linkField).toHaveValue(/\/reset-password#token=[A-Za-z0-9]{24}$/);
  await expect(dialog).toContainText('shown only this once');
  await expectAccessible(admin, 'the reset link dialog');
  const link = await linkField.inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // The operator opens it in another browser (they forgot the password there).
  const elsewhere = await browser.newContext();
  const reset = await elsewhere.newPage();
  await reset.goto(link);
  await expect(reset.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await expect(reset.getByText(email)).toBeVisible();
  await expectAccessible(reset, 'the reset page');
  // The form's own rules first, then the server's: no password built on one's own address.
  await reset.getByLabel('New password', { exact: true }).fill('a passphrase to keep');
  await reset.getByLabel('Repeat the new password').fill('a different passphrase');
  await reset.getByRole('button', { name: 'Change password' }).click();
  await expect(reset.getByText('The two passwords differ')).toBeVisible();
  const own = `${email.split('@')[0]}!2024`;
  await reset.getByLabel('New password', { exact: true }).fill(own);
  await reset.getByLabel('Repeat the new password').fill(own);
  await reset.getByRole('button', { name: 'Change password' }).click();
  await expect(
    reset
      .getByRole('form', { name: 'Choose a new password' })
      .getByText(/^This password is built on the panel's name/),
  ).toBeVisible();

  const fresh = 'my own fresh passphrase';
  await reset.getByLabel('New password', { exact: true }).fill(fresh);
  await reset.getByLabel('Repeat the new password').fill(fresh);
  await reset.getByRole('button', { name: 'Change password' }).click();
  await expect(reset).toHaveURL(/\/login$/);
  await expect(
    reset.getByRole('status').filter({ hasText: 'Your password is changed: sign in with it' }),
  ).toBeVisible();
  // Every session of the account ended: the operator's first tab is signed out.
  await expect(page).toHaveURL(/\/login$/);
  await login(reset, email, fresh);
  await expect(reset).toHaveURL(/\/dashboard$/);
  await logout(reset);

  // Used once: opening it again says so.
  await reset.goto(link);
  await expect(reset.getByText('This reset link has expired or was already used')).toBeVisible();
  await expect(reset.getByRole('link', { name: 'Go to the sign-in page' })).toBeVisible();
  await expectAccessible(reset, 'the reset page of a used link');
  // The old password is gone.
  await login(reset, email, PASSWORD);
  await expect(reset).toHaveURL(/\/login$/);
  await elsewhere.close();
  await admin.context().close();
});

test('a reset link without its token says what to do', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByText('This reset link is incomplete')).toBeVisible();
  await expectAccessible(page, 'the reset page without a token');
});

test('an administrator deactivates an operator: their open page goes to the sign-in page, and signing in says the account is deactivated', async ({
  browser,
  page,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 403/);
  const email = await register(page);
  const admin = await administratorOnSettings(browser);
  const operators = admin.getByRole('table', { name: 'Operators' });
  await operators.getByRole('button', { name: `Deactivate ${email}` }).click();
  const dialog = admin.getByRole('dialog', { name: `Deactivate ${email}?` });
  await expect(dialog).toContainText('signed out everywhere');
  await expectAccessible(admin, 'the deactivate dialog');
  await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(
    admin
      .getByRole('status')
      .filter({ hasText: `${email} is deactivated and signed out: 1 session ended` }),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = operators.getByRole('row').filter({ hasText: email });
  await expect(row.getByText('Deactivated', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: `Sign out ${email}` })).toHaveCount(0);
  // "Deactivate" went from the row: "Reactivate" in its place has the focus.
  await expect(row.getByRole('button', { name: `Reactivate ${email}` })).toBeFocused();
  await expectAccessible(admin, 'the operators panel with a deactivated operator');

  // The operator's tab learns through its live socket, without a reload.
  await expect(page).toHaveURL(/\/login$/);
  await login(page, email, PASSWORD);
  await expect(
    page.getByRole('alert').getByText('This account is deactivated; ask your administrator'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // Reactivated, the old password works again.
  await row.getByRole('button', { name: `Reactivate ${email}` }).click();
  await expect(
    admin.getByRole('status').filter({ hasText: `${email} is reactivated` }),
  ).toBeVisible();
  await expect(row.getByText('Deactivated', { exact: true })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Deactivate ${email}` })).toBeFocused();
  await login(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await admin.context().close();
});

test("at 390 px the operators and one's sessions read one block a row, every button on screen", async ({
  browser,
  page,
}) => {
  const email = await register(page);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const admin = await context.newPage();
  await login(admin, ADMIN.email, ADMIN.password);
  await expect(admin).toHaveURL(/\/dashboard$/);
  await admin.goto('/settings');
  const buttons = [
    admin
      .getByRole('table', { name: 'Operators' })
      .getByRole('button', { name: `Deactivate ${email}` }),
    admin
      .getByRole('table', { name: 'Operators' })
      .getByRole('button', { name: `Make ${email} an administrator` }),
    admin.getByRole('button', { name: 'End the session of this device' }),
  ];
  // Nothing is scrolled sideways, so a button past the right edge would be one to scroll to.
  for (const button of buttons) {
    await expect(button).toBeAttached();
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  }
  await context.close();
});
