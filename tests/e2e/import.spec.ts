import type { Page } from '@playwright/test';
import { expectAccessible } from './accessibility.ts';
import { expect, register, test } from './fixtures.ts';

function csvFile(name: string, lines: string[]) {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\r\n')}\r\n`) };
}

async function openImport(page: Page) {
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Import' }).click();
  return page.getByRole('dialog', { name: 'Import clients' });
}

test.describe('import from a CSV', () => {
  test('a spreadsheet is checked, its unknown column chosen by hand, duplicates skipped, and stored; another tab follows', async ({
    page,
    context,
  }) => {
    await register(page);
    const origin = new URL(page.url()).origin;
    const existing = await page.request.post('/api/clients', {
      headers: { origin },
      data: {
        fname: 'Asha',
        lname: 'Verma',
        email: 'asha@example.com',
        phone: '9876500001',
        balance: '0',
      },
    });
    expect(existing.status()).toBe(201);
    const otherTab = await context.newPage();
    await otherTab.goto('/dashboard');
    await expect(otherTab.getByText('1–1 of 1')).toBeVisible();

    const dialog = await openImport(page);
    await dialog
      .getByLabel('CSV file')
      .setInputFiles(
        csvFile('from-sheets.csv', [
          'Client,Surname,E-mail,Mobile,Amount due',
          'Ravi,Kumar,ravi@example.com,98765 00002,"1,200.50"',
          'Meera,Iyer,meera@example.com,098765-00003,-300',
          'Asha,Verma,ASHA@example.com,9876500001,50',
        ]),
      );
    await expect(dialog.getByText('No column is First Name: choose which one it is')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
    await dialog.getByLabel('Client').selectOption({ label: 'First Name' });
    await expect(
      dialog.getByText('3 rows in from-sheets.csv: 3 clients ready to import'),
    ).toBeVisible();
    await expect(dialog.getByLabel(/Skip the 1 row with the e-mail or phone/)).toBeChecked();
    await expectAccessible(page, 'import preview');

    await dialog.getByRole('button', { name: 'Import 2 clients' }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByRole('status').filter({ hasText: '2 clients imported, 1 duplicate skipped' }),
    ).toBeVisible();
    await expect(page.getByText('1–3 of 3')).toBeVisible();
    await expect(page.getByTestId('total-owed')).toContainText('₹900.50');
    // The other tab reloads its list once, from the one event the import sent.
    await expect(otherTab.getByText('1–3 of 3')).toBeVisible();
    await expect(otherTab.getByRole('link', { name: /Ravi/ }).first()).toBeVisible();
  });

  test('rows that break the rules are listed with their row numbers, and nothing can be stored', async ({
    page,
  }) => {
    await register(page);
    const dialog = await openImport(page);
    await dialog
      .getByLabel('CSV file')
      .setInputFiles(
        csvFile('clients.csv', [
          'First Name,Last Name,Email,Phone,Balance',
          'Good,Row,good@example.com,9876500010,10',
          'Bad,Row,bad@example.com,12345,10',
        ]),
      );
    const problems = dialog.getByRole('table', { name: 'Rows to fix in the file' });
    await expect(
      problems.getByRole('row', { name: /3 Phone Enter a valid phone number/ }),
    ).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText('No users found')).toBeVisible();
  });

  test('a file that is not a CSV gets a clear answer', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/status of 400/);
    await register(page);
    const dialog = await openImport(page);
    await dialog.getByLabel('CSV file').setInputFiles({
      name: 'clients.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from('PK\x03\x04 not really a workbook', 'latin1'),
    });
    await expect(
      dialog.getByText(
        'This is a spreadsheet workbook, not a CSV: save it as "CSV UTF-8" and try again',
      ),
    ).toBeVisible();
  });
});
