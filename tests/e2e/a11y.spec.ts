import type { Browser } from '@playwright/test';
import { expectAccessible } from './accessibility.ts';
import { expect, register, test } from './fixtures.ts';

async function visitEveryPage(browser: Browser, options: { dark: boolean; phone: boolean }) {
  const context = await browser.newContext({
    colorScheme: options.dark ? 'dark' : 'light',
    viewport: options.phone ? { width: 390, height: 844 } : { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const where = `${options.dark ? 'dark' : 'light'} theme, ${options.phone ? 'phone' : 'desktop'}`;
  const check = (name: string) => expectAccessible(page, `${name} (${where})`);

  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  await check('login');
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: 'Register' })).toBeVisible();
  await check('register');
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await check('not found');

  await register(page);
  await expect(page.getByText('No users found')).toBeVisible();
  await check('dashboard, empty');

  await page.getByRole('link', { name: 'New' }).click();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('First name is required')).toBeVisible();
  await check('add client with errors');
  await page.getByLabel('First Name').fill('Asha');
  await page.getByLabel('Last Name').fill('Verma');
  await page.getByLabel('Email').fill('asha@example.com');
  await page.getByLabel('Phone').fill('98765 43210');
  await page.getByLabel('Balance').fill('1234.50');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const origin = new URL(page.url()).origin;
  await page.request.post('/api/clients', {
    headers: { origin },
    data: {
      fname: 'Ravi',
      lname: 'Kumar',
      email: 'r@example.com',
      phone: '9000000001',
      balance: '-50',
    },
  });
  await expect(page.getByText('1–2 of 2')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Owed to you' })).toContainText('₹1,234.50');
  await expect(
    page.getByRole('table', { name: 'Total owed at the end of each day' }),
  ).toBeAttached();
  await check('dashboard with clients, totals and trend');

  // Rows are picked in the table, which the phone's cards replace.
  if (!options.phone) {
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    const picked = page.getByRole('group', { name: 'Selected clients' });
    await expect(picked).toContainText('2 selected');
    await check('dashboard with clients selected');
    await picked.getByRole('button', { name: 'Delete selected' }).click();
    await expect(page.getByRole('dialog', { name: 'Are you sure ?' })).toBeVisible();
    await check('bulk delete dialog');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await picked.getByRole('button', { name: 'Clear selection' }).click();
    await expect(picked).toHaveCount(0);
  }

  await page.getByRole('link', { name: /Asha/ }).first().click();
  await page.getByRole('button', { name: 'Edit balance' }).click();
  await expect(page.getByLabel('New balance')).toBeVisible();
  await check('details with the balance form open');

  await page.getByRole('button', { name: 'Record payment' }).click();
  await page.getByLabel('Amount (₹)').fill('5000');
  await expect(page.getByText(/after it they will be/)).toBeVisible();
  await check('details with a payment being recorded');
  await page.getByRole('button', { name: 'Save payment' }).click();
  await expect(page.getByText('−₹5,000.00').filter({ visible: true })).toBeVisible();
  await check('details with its history');
  await page.getByRole('link', { name: 'Statement' }).click();
  await expect(page.getByRole('heading', { name: 'Statement of account' })).toBeVisible();
  await check('statement');
  await page.getByRole('link', { name: /^Back to Asha/ }).click();

  await page.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await check('delete dialog');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('link', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edit Client' })).toBeVisible();
  await check('edit client');

  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Edit Settings' })).toBeVisible();
  await check('settings');
  await context.close();
}

test.describe('accessibility (axe)', () => {
  // Fourteen axe runs in one story (sixteen at desktop width): on a shared two-core machine that is more than the
  // default 30 s, without anything being wrong.
  test.describe.configure({ timeout: 120_000 });
  test.use({ panelSettings: { disableBalanceOnAdd: false } });
  for (const dark of [false, true]) {
    for (const phone of [false, true]) {
      test(`every page, ${dark ? 'dark' : 'light'} theme, ${phone ? 'phone' : 'desktop'} width`, async ({
        browser,
        consoleErrors,
      }) => {
        // The not-found page answers 404 on purpose.
        consoleErrors.allow(/status of 404/);
        await visitEveryPage(browser, { dark, phone });
      });
    }
  }
});
