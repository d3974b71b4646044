import type { Page } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect, register, setSettings, test } from './fixtures.ts';

/** The text of a PDF, page by page, as a reader would copy it. */
async function pdfText(pdf: Buffer): Promise<{ pages: number; text: string }> {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: true }).promise;
  const parts: string[] = [];
  for (let number = 1; number <= document.numPages; number += 1) {
    const content = await (await document.getPage(number)).getTextContent();
    parts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return { pages: document.numPages, text: parts.join('\n').replace(/\s+/g, ' ') };
}

const history = (page: Page) => page.getByRole('table', { name: 'History' });
const historyRow = (page: Page, index: number) =>
  history(page)
    .getByRole('row')
    .nth(index + 1);
const balance = (page: Page) => page.getByRole('heading', { name: /^Balance:/ });

async function addClient(page: Page, balanceText: string): Promise<string> {
  await page.goto('/client/add');
  await page.getByLabel('First Name').fill('Meera');
  await page.getByLabel('Last Name').fill('Pillai');
  await page.getByLabel('Email').fill('meera@example.com');
  await page.getByLabel('Phone').fill('98470 12345');
  await page.getByLabel('Balance').fill(balanceText);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('link', { name: 'Details of Meera Pillai' }).click();
  await expect(page.getByRole('heading', { name: 'Meera Pillai', level: 1 })).toBeVisible();
  return page.url();
}

async function recordEntry(
  page: Page,
  kind: 'Record payment' | 'Add charge',
  amount: string,
  note = '',
) {
  await page.getByRole('button', { name: kind }).click();
  const form = page.getByRole('form', { name: kind });
  await form.getByLabel('Amount (₹)').fill(amount);
  if (note) await form.getByLabel('Note (optional)').fill(note);
  await form.getByRole('button', { name: /^Save/ }).click();
  await expect(form).toBeHidden();
}

test.describe('the ledger behind every balance', () => {
  test('with the balance locked on add, saving lands on the client with "Add charge" ready', async ({
    panel,
    page,
  }) => {
    await setSettings(panel, { 'Disable Balance On Add': true });
    await register(page);
    await page.getByRole('link', { name: 'New' }).click();
    await expect(
      page.getByText('What the client owes is recorded on their page: saving opens it'),
    ).toBeVisible();
    await page.getByLabel('First Name').fill('Arjun');
    await page.getByLabel('Last Name').fill('Menon');
    await page.getByLabel('Email').fill('arjun@example.com');
    await page.getByLabel('Phone').fill('98470 55555');
    await page.getByRole('button', { name: 'Submit' }).click();

    await expect(page.getByRole('heading', { name: 'Arjun Menon', level: 1 })).toBeVisible();
    const form = page.getByRole('form', { name: 'Add charge' });
    await expect(form.getByLabel('Amount (₹)')).toBeFocused();
    await page.keyboard.type('12,400');
    await form.getByRole('button', { name: 'Save charge' }).click();
    await expect(balance(page)).toContainText('₹12,400.00');
    await expect(historyRow(page, 0)).toContainText('Charge');
    await expect(historyRow(page, 0)).toContainText('+₹12,400.00');
    await setSettings(panel, { 'Disable Balance On Add': false });
  });

  test('payments, charges and edits are kept, shown, printed and followed live', async ({
    panel,
    page,
    context,
  }) => {
    await setSettings(panel, { 'Disable Balance On Add': false });
    const email = await register(page);
    const clientUrl = await addClient(page, '1,000');
    await expect(historyRow(page, 0)).toContainText('Opening balance');
    await expect(historyRow(page, 0)).toContainText(email);

    // A second tab on the dashboard follows what the first records.
    const dashboard = await context.newPage();
    await dashboard.goto('/dashboard');
    const owed = dashboard.getByRole('region', { name: 'Owed to you' });
    await expect(owed).toContainText('₹1,000.00');
    await expect(owed).toContainText('by 1 client');
    await expect(dashboard.getByRole('region', { name: 'Held in credit' })).toContainText('₹0.00');
    const trend = dashboard.getByRole('table', { name: 'Total owed at the end of each day' });
    await expect(trend.getByRole('row')).toHaveCount(91);
    await expect(trend.getByRole('row').last()).toContainText('₹1,000.00');
    await expect(trend.getByRole('row').nth(1)).toContainText('₹0.00');

    // A payment, with a note: the balance falls at once, the row is green.
    await recordEntry(page, 'Record payment', '300', 'Cash at the counter');
    await expect(balance(page)).toContainText('₹700.00');
    await expect(page.getByRole('status').filter({ hasText: 'Payment recorded' })).toBeVisible();
    await expect(historyRow(page, 0)).toContainText('Payment');
    await expect(historyRow(page, 0)).toContainText('Cash at the counter');
    const paid = historyRow(page, 0).getByText('−₹300.00');
    await expect(paid).toHaveClass(/balance-clear/);
    await expect(page.getByText(/^Last payment: \d+ \w+ \d{4}$/)).toBeVisible();

    await recordEntry(page, 'Add charge', '150.50');
    await expect(balance(page)).toContainText('₹850.50');
    await expect(historyRow(page, 0).getByText('+₹150.50')).toHaveClass(/balance-owing/);

    // More than is owed: said before saving, then allowed.
    await page.getByRole('button', { name: 'Record payment' }).click();
    const payment = page.getByRole('form', { name: 'Record payment' });
    await payment.getByLabel('Amount (₹)').fill('1000');
    await expect(payment.getByRole('status')).toContainText(
      'This is more than the ₹850.50 Meera Pillai owes: after it they will be ₹149.50 in credit.',
    );
    await payment.getByLabel('Amount (₹)').fill('0');
    await payment.getByRole('button', { name: 'Save payment' }).click();
    await expect(payment.getByText('Amount must be more than 0')).toBeVisible();
    await payment.getByRole('button', { name: 'Cancel' }).click();

    // Editing the balance is an adjustment, with its reason.
    await page.getByRole('button', { name: 'Edit balance' }).click();
    await page.getByLabel('New balance').fill('900');
    await page.getByLabel('Reason for the change (optional)').fill('Rounded up');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(balance(page)).toContainText('₹900.00');
    await expect(historyRow(page, 0)).toContainText('Adjustment');
    await expect(historyRow(page, 0)).toContainText('from ₹850.50');
    await expect(historyRow(page, 0)).toContainText('Rounded up');
    await expect(history(page).getByRole('row')).toHaveCount(5);

    // The other tab followed every step: the totals and the chart's last day.
    await expect(owed).toContainText('₹900.00');
    await expect(trend.getByRole('row').last()).toContainText('₹900.00');

    // A second tab on the client's page follows a payment made in the first.
    const follower = await context.newPage();
    await follower.goto(clientUrl);
    await expect(balance(follower)).toContainText('₹900.00');
    await recordEntry(page, 'Record payment', '100');
    await expect(balance(follower)).toContainText('₹800.00');
    await expect(historyRow(follower, 0)).toContainText('−₹100.00');
    await expect(owed).toContainText('₹800.00');

    // The statement: opening, every entry, totals, closing; printed as a clean A4 page.
    await page.getByRole('link', { name: 'Statement' }).click();
    await expect(page.getByRole('heading', { name: 'Statement of account' })).toBeVisible();
    const summary = page.getByRole('table', { name: 'Summary' });
    await expect(summary.getByRole('row', { name: /Balance brought forward/ })).toContainText(
      '₹0.00',
    );
    // Charges: the opening 1,000, the charge 150.50 and the edit's 49.50; payments 300 + 100.
    await expect(summary.getByRole('row', { name: /Charges/ })).toContainText('₹1,200.00');
    await expect(summary.getByRole('row', { name: /Payments/ })).toContainText('₹400.00');
    await expect(summary.getByRole('row', { name: /Closing balance/ })).toContainText('₹800.00');
    const entries = page.getByRole('table', { name: 'Entries' });
    // The line brought forward, five entries, then the closing line. The client's own opening
    // balance (an entry) is the only line called that.
    await expect(entries.getByRole('row')).toHaveCount(8);
    await expect(entries.getByRole('row', { name: /Balance brought forward/ })).toHaveCount(1);
    await expect(entries.getByRole('row', { name: /Opening balance/ })).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Print' })).toBeEnabled();

    const printed = await pdfText(await page.pdf({ format: 'A4' }));
    expect(printed.pages).toBe(1);
    expect(printed.text).toContain('Statement of account');
    expect(printed.text).toContain('Meera Pillai');
    expect(printed.text).toContain('Cash at the counter');
    expect(printed.text).toContain('Closing balance');
    expect(printed.text).toContain('800.00');
    // No navbar, no buttons, no form on paper.
    for (const absent of ['Logout', 'Settings', 'Print', 'Show', 'Back to']) {
      expect(printed.text).not.toContain(absent);
    }

    // A narrower period starts from the balance it had: nothing happened before today.
    await page.getByLabel('From', { exact: true }).fill('2020-01-01');
    await page.getByLabel('To', { exact: true }).fill('2020-12-31');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/from=2020-01-01&to=2020-12-31/);
    await expect(page.getByText('Nothing was recorded in this period.')).toBeVisible();
    await page.getByLabel('To', { exact: true }).fill('2019-12-31');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page.getByText('The "To" date must not be before the "From" date')).toBeVisible();

    // The list shows when each client last paid, and sorts by it.
    await page.goto('/dashboard');
    const table = page.getByRole('table', { name: 'Clients' });
    await expect(table.getByRole('columnheader', { name: 'Last payment' })).toBeVisible();
    await expect(table.getByRole('row').nth(1)).toContainText(/\d+ \w+ \d{4}/);
    await page.getByRole('button', { name: 'Owing, longest unpaid first' }).click();
    await expect(page).toHaveURL(/balance=owing/);
    await expect(page).toHaveURL(/sort=lastPaymentOn/);
    await expect(table.getByRole('columnheader', { name: 'Last payment' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
  });
});
