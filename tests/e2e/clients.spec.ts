import type { Browser, Page } from '@playwright/test';
import { expect, register, setSettings, test } from './fixtures.ts';

async function addClient(
  page: Page,
  client: { fname: string; lname: string; email: string; phone: string; balance?: string },
) {
  await page.getByRole('link', { name: 'New' }).click();
  await expect(page).toHaveURL(/\/client\/add$/);
  await page.getByLabel('First Name').fill(client.fname);
  await page.getByLabel('Last Name').fill(client.lname);
  await page.getByLabel('Email').fill(client.email);
  await page.getByLabel('Phone').fill(client.phone);
  if (client.balance !== undefined) await page.getByLabel('Balance').fill(client.balance);
  const balanceLocked = await page.getByLabel('Balance').isDisabled();
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Client Added Successfully !!' }),
  ).toBeVisible();
  if (balanceLocked) {
    // What the client owes is entered on their page, which opens with "Add charge" ready.
    await expect(page.getByRole('form', { name: 'Add charge' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  }
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function newOperatorPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await register(page);
  return page;
}

test('the whole original flow: add, list and total, details, balance, edit, delete', async ({
  panel,
  browser,
  consoleErrors,
}) => {
  // The original's defaults, whatever an earlier test left: balances locked on add and edit.
  await setSettings(panel, { 'Disable Balance On Add': true, 'Disable Balance On Edit': true });
  const page = await newOperatorPage(browser);
  await expect(page.getByText('No users found')).toBeVisible();
  await expect(page.getByTestId('total-owed')).toHaveText('Total Owed : ₹0.00');

  // Balance is locked on add by default: the client is stored with 0.
  await page.getByRole('link', { name: 'New' }).click();
  await expect(page.getByLabel('Balance')).toBeDisabled();
  // Each invalid field shows its own message and nothing is sent.
  await page.getByLabel('First Name').fill('A');
  await page.getByLabel('Phone').fill('12345');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('First name must be at least 2 characters')).toBeVisible();
  await expect(page.getByText(/Enter a valid phone number/)).toBeVisible();
  await expect(page.getByText('Last name is required')).toBeVisible();
  await expect(page).toHaveURL(/\/client\/add$/);
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();

  await addClient(page, {
    fname: 'Asha',
    lname: 'Verma',
    email: 'asha@example.com',
    phone: '9876543210',
  });
  const table = page.getByRole('table', { name: 'Clients' });
  const ashaRow = table.getByRole('row').filter({ hasText: 'Asha' });
  await expect(ashaRow).toContainText('Verma');
  await expect(ashaRow).toContainText('98765 43210');
  await expect(ashaRow).toContainText('asha@example.com');
  await expect(ashaRow).toContainText('₹0.00');

  // With the balance unlocked, a client can be added owing money.
  await setSettings(panel, { 'Disable Balance On Add': false, 'Disable Balance On Edit': false });
  await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
  await addClient(page, {
    fname: 'Bala',
    lname: 'Anand',
    email: 'bala@example.com',
    phone: '9000000000',
    balance: '123456.5',
  });
  await expect(page.getByTestId('total-owed')).toHaveText('Total Owed : ₹1,23,456.50');
  // Ordered by last name: Anand before Verma.
  await expect(table.getByRole('row').nth(1)).toContainText('Anand');
  await expect(table.getByRole('row').nth(2)).toContainText('Verma');

  // Details
  await ashaRow.getByRole('link', { name: /Details/ }).click();
  await expect(page.getByRole('heading', { name: 'Asha Verma' })).toBeVisible();
  await expect(page.getByText('Client Id:')).toBeVisible();
  await expect(page.getByText('Contact Email: asha@example.com')).toBeVisible();
  await expect(page.getByText('Contact Phone: 98765 43210')).toBeVisible();
  await expect(page.getByText('₹0.00')).toHaveClass(/balance-clear/);

  // Pencil → inline balance, validated.
  await page.getByRole('button', { name: 'Edit balance' }).click();
  const balanceInput = page.getByLabel('New balance');
  await balanceInput.fill('12.345');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Enter a number with at most 2 decimal places')).toBeVisible();
  await balanceInput.fill('1234.5');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Balance Updated' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Balance:/ }).getByText('₹1,234.50')).toHaveClass(
    /balance-owing/,
  );
  await expect(page.getByLabel('New balance')).toHaveCount(0);
  // The toggle hides the form again.
  await page.getByRole('button', { name: 'Edit balance' }).click();
  await expect(page.getByLabel('New balance')).toBeVisible();
  await page.getByRole('button', { name: 'Edit balance' }).click();
  await expect(page.getByLabel('New balance')).toHaveCount(0);

  // Edit
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page).toHaveURL(/\/client\/edit\//);
  await expect(page.getByLabel('First Name')).toHaveValue('Asha');
  await page.getByLabel('Phone').fill('+91 91234-56789');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Updated Successfully' })).toBeVisible();
  await expect(page).toHaveURL(/\/client\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Contact Phone: 91234 56789')).toBeVisible();

  // Delete, cancelled first, then confirmed.
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Are you sure ?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Asha Verma' })).toBeVisible();
  const detailsUrl = page.url();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Are you sure ?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('status').filter({ hasText: 'Client Removed' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'Asha' })).toHaveCount(0);
  await expect(page.getByTestId('total-owed')).toHaveText('Total Owed : ₹1,23,456.50');

  // A deleted id shows "Client not found" with a way back (its 404 is expected).
  consoleErrors.allow(/status of 404/);
  await page.goto(detailsUrl);
  await expect(page.getByRole('heading', { name: 'Client not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.context().close();
});

test("changes in one tab appear live in the operator's other tab, and never in another operator's", async ({
  panel,
  browser,
}) => {
  const tab1 = await newOperatorPage(browser);
  await setSettings(panel, { 'Disable Balance On Add': false });
  const tab2 = await tab1.context().newPage();
  await tab2.goto('/dashboard');
  await expect(tab2.getByText('No users found')).toBeVisible();
  const other = await newOperatorPage(browser);
  await expect(other.getByText('No users found')).toBeVisible();

  await addClient(tab1, {
    fname: 'Live',
    lname: 'Person',
    email: 'live@example.com',
    phone: '9999999999',
    balance: '100',
  });
  const tab2Row = tab2
    .getByRole('table', { name: 'Clients' })
    .getByRole('row')
    .filter({ hasText: 'Live' });
  await expect(tab2Row).toContainText('₹100.00');
  await expect(tab2.getByTestId('total-owed')).toHaveText('Total Owed : ₹100.00');

  // tab2 follows the details page live too.
  await tab2Row.getByRole('link', { name: /Details/ }).click();
  await expect(tab2.getByRole('heading', { name: 'Live Person' })).toBeVisible();

  await tab1
    .getByRole('table', { name: 'Clients' })
    .getByRole('link', { name: /Details/ })
    .click();
  await tab1.getByRole('button', { name: 'Edit balance' }).click();
  await tab1.getByLabel('New balance').fill('-50');
  await tab1.getByRole('button', { name: 'Update' }).click();
  await expect(tab1.getByRole('status').filter({ hasText: 'Balance Updated' })).toBeVisible();
  await expect(
    tab2.getByRole('heading', { name: /^Balance:/ }).getByText('₹50.00 in credit'),
  ).toHaveClass(/balance-clear/);

  await tab1.getByRole('button', { name: 'Delete' }).click();
  await tab1.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(tab1).toHaveURL(/\/dashboard$/);
  await expect(tab2.getByRole('heading', { name: 'Client not found' })).toBeVisible();
  await expect(tab2.getByText('This client was deleted elsewhere.')).toBeVisible();
  await tab2.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(tab2.getByText('No users found')).toBeVisible();

  // The other operator saw none of it.
  await expect(other.getByText('No users found')).toBeVisible();
  await expect(other.getByText('Live')).toHaveCount(0);
  await expect(other.getByTestId('total-owed')).toHaveText('Total Owed : ₹0.00');
  await tab1.context().close();
  await other.context().close();
});

test('an edit based on old data is refused; what was typed stays, chosen field by field', async ({
  browser,
  consoleErrors,
}) => {
  consoleErrors.allow(/status of 409/);
  const page = await newOperatorPage(browser);
  await addClient(page, {
    fname: 'Conflict',
    lname: 'Case',
    email: 'c@example.com',
    phone: '9888888888',
  });
  await page
    .getByRole('table', { name: 'Clients' })
    .getByRole('link', { name: /Details/ })
    .click();
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByLabel('First Name')).toHaveValue('Conflict');
  const id = page.url().split('/').pop() ?? '';

  // Someone else changes the client meanwhile (another tab of the same operator).
  const response = await page.request.patch(`/api/clients/${id}`, {
    data: { version: 1, lname: 'Changed' },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(response.status()).toBe(200);

  await page.getByLabel('First Name').fill('Mine');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'This client was changed elsewhere' }),
  ).toBeVisible();
  // What was typed stays; each differing field is shown beside the current value.
  await expect(page.getByLabel('First Name')).toHaveValue('Mine');
  await expect(page.getByRole('heading', { name: /Someone saved this client/ })).toBeVisible();
  const firstName = page.getByRole('group', { name: 'First Name' });
  await expect(firstName.getByLabel('Yours: Mine')).toBeChecked();
  await expect(firstName.getByLabel('Current: Conflict')).not.toBeChecked();
  // The operator never touched the last name: the current value is the one offered.
  await expect(
    page.getByRole('group', { name: 'Last Name' }).getByLabel('Current: Changed'),
  ).toBeChecked();
  await page.getByRole('button', { name: 'Save with these choices' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Updated Successfully' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Mine Changed' })).toBeVisible();
  await page.context().close();
});

test('at 1280 px every row\'s "Details" and "Remind" work: the table scrolls within its column, and no sidebar lies over it', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await register(page);
  const origin = new URL(page.url()).origin;
  const names = [
    ['Sneha', 'Agarwal', '9876500001'],
    ['Rohit', 'Venkataraman', '9876500002'],
  ] as const;
  for (const [fname, lname, phone] of names) {
    const created = await page.request.post('/api/clients', {
      headers: { origin },
      data: {
        fname,
        lname,
        email: `${fname.toLowerCase()}.${lname.toLowerCase()}@example-kirana-store.in`,
        phone,
        balance: '2500',
      },
    });
    expect(created.status(), await created.text()).toBe(201);
  }
  await page.reload();
  const table = page.getByRole('table', { name: 'Clients' });
  // Playwright clicks only where the element itself would take the click: an element lying
  // over the button (the sidebar did, past the column's edge) fails the click.
  await table.getByRole('button', { name: 'Remind Sneha Agarwal' }).click({ timeout: 5_000 });
  await expect(page.getByRole('dialog', { name: 'Remind Sneha Agarwal' })).toBeVisible();
  await page.keyboard.press('Escape');
  await table
    .getByRole('link', { name: 'Details of Rohit Venkataraman' })
    .click({ timeout: 5_000 });
  await expect(page).toHaveURL(/\/client\/[0-9a-f-]+$/);
  await context.close();
});
