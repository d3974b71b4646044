import type { Browser, Locator, Page } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { expectAccessible } from './accessibility.ts';
import { expect, register, test } from './fixtures.ts';

// Issue 20's story end to end: the operator sets a UPI ID, reminds a client on WhatsApp, the
// client opens the statement link on a phone without signing in (and without JavaScript),
// scans or taps to pay, says "I have paid", and the operator confirms it on a page that
// follows live.

const UPI_ID = 'kumar.stores@okhdfc';
const BUSINESS = 'Kumar Stores';
const CLIENT = { fname: 'Meera', lname: 'Pillai', phone: '98470 12345', balance: '1500' };
/** NPCI's link for ₹1,500.00 to the UPI ID above, every value percent-encoded. */
const EXPECTED_UPI_URI =
  'upi://pay?pa=kumar.stores%40okhdfc&pn=Kumar%20Stores&am=1500.00&cu=INR&tn=Payment%20from%20Meera%20Pillai';

const balance = (page: Page) => page.getByRole('heading', { name: /^Balance:/ });
const historyRow = (page: Page, index: number) =>
  page
    .getByRole('table', { name: 'History' })
    .getByRole('row')
    .nth(index + 1);

/** A client owing ₹1,500.00, through the API (the add form has its own tests): their page. */
async function addOwingClient(page: Page): Promise<string> {
  const origin = new URL(page.url()).origin;
  const response = await page.request.post('/api/clients', {
    headers: { origin },
    data: { ...CLIENT, email: 'meera@example.com' },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  return `/client/${id}`;
}

/** Settings → "Getting paid", through its form as the operator fills it. */
async function setUpGettingPaid(page: Page): Promise<void> {
  await page.goto('/settings');
  const form = page.getByRole('form', { name: 'Getting paid' });
  await form.getByLabel('Business name').fill(BUSINESS);
  await form.getByLabel('UPI ID').fill(UPI_ID);
  await form.getByLabel('Other ways to pay').fill('Cash at the shop, Monday to Saturday');
  // The preview fills the reminder in for the client, as it will be sent.
  await expect(form.getByTestId('preview-message')).toContainText(
    'Namaste Meera Pillai, a reminder from Kumar Stores: ₹1,500.00 is outstanding.',
  );
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
}

/** A dialog's own Close button, in its footer (the header's × is named Close too). */
const closeButton = (dialog: Locator) => dialog.getByRole('button', { name: 'Close' }).last();

/** A statement link made in the "Share statement" dialog, which stays open. */
async function makeLink(page: Page): Promise<{ dialog: Locator; url: string }> {
  await page.getByRole('button', { name: 'Share statement' }).click();
  const dialog = page.getByRole('dialog', { name: /^Share statement: Meera Pillai/ });
  await dialog.getByRole('button', { name: 'Make link' }).click();
  const field = dialog.getByRole('textbox', { name: 'Statement link' });
  await expect(field).toHaveValue(/\/s\/[A-Za-z0-9_-]{22,}$/);
  return { dialog, url: await field.inputValue() };
}

/** The QR code on the page, read from a screenshot of it as a phone's camera would. */
async function decodeQr(code: Locator): Promise<string | undefined> {
  const png = PNG.sync.read(await code.screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

/** A browser of the client's own: no cookie of the operator's, JavaScript on or off. */
async function clientBrowser(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled });
  expect(await context.cookies()).toEqual([]);
  return { context, page: await context.newPage() };
}

async function sendClaim(page: Page, amount: string, reference: string, note = '') {
  const form = page.getByRole('region', { name: 'I have paid' });
  await form.getByLabel('Amount (₹)').fill(amount);
  await form.getByLabel('UPI or bank reference').fill(reference);
  if (note) await form.getByLabel('Note (optional)').fill(note);
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('heading', { name: 'Thank you' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(
    'Kumar Stores will check your payment and update your statement.',
  );
}

test.describe('getting paid: statement links, UPI, reminders and "I have paid"', () => {
  test.use({ panelSettings: { disableBalanceOnAdd: false } });

  test('a WhatsApp reminder carries the statement link, whose page is paid by UPI and claimed, and the claim is confirmed live', async ({
    browser,
    page,
  }) => {
    await register(page);
    const clientPath = await addOwingClient(page);
    await setUpGettingPaid(page);

    await page.goto(clientPath);
    await expect(balance(page)).toContainText('₹1,500.00');
    await page.getByRole('button', { name: 'Remind Meera Pillai' }).click();
    const remind = page.getByRole('dialog', { name: 'Remind Meera Pillai' });
    await expect(remind.getByLabel('Message')).toHaveValue(
      /^Namaste Meera Pillai, a reminder from Kumar Stores: ₹1,500\.00 is outstanding\./,
    );
    await remind.getByRole('button', { name: 'WhatsApp' }).click();
    // The link is checked, not followed: WhatsApp is the phone's business.
    const open = remind.getByRole('link', { name: 'Open WhatsApp' });
    await expect(open).toBeVisible();
    const whatsapp = new URL((await open.getAttribute('href')) ?? '');
    expect(`${whatsapp.origin}${whatsapp.pathname}`).toBe('https://wa.me/919847012345');
    const text = whatsapp.searchParams.get('text') ?? '';
    const origin = new URL(page.url()).origin;
    const linkInText = new RegExp(`${origin}/s/[A-Za-z0-9_-]{22,}$`);
    expect(text).toMatch(
      /^Namaste Meera Pillai, a reminder from Kumar Stores: ₹1,500\.00 is outstanding\. Your statement, and a way to pay by UPI: /,
    );
    expect(text).toMatch(linkInText);
    const reminderLink = text.match(linkInText)?.[0] ?? '';
    await closeButton(remind).click();
    await expect(page.getByRole('list', { name: 'Reminders sent' })).toContainText('WhatsApp');

    // "Share statement" makes a link of its own.
    const { dialog, url } = await makeLink(page);
    expect(url).toMatch(linkInText);
    expect(url).not.toBe(reminderLink);
    await expect(
      dialog.getByRole('table', { name: 'Statement links' }).getByRole('row'),
    ).toHaveCount(3);
    await closeButton(dialog).click();

    // The client's phone, JavaScript off: the amount, the QR code, the UPI link.
    const noScript = await clientBrowser(browser, false);
    await noScript.page.goto(reminderLink);
    await expect(noScript.page.getByRole('heading', { name: BUSINESS, level: 1 })).toBeVisible();
    await expect(noScript.page.getByText('Statement for Meera Pillai')).toBeVisible();
    const owed = noScript.page.getByRole('region', { name: 'Balance' });
    await expect(owed).toContainText('You owe');
    await expect(owed.locator('.amount')).toHaveText('₹1,500.00');
    await expect(noScript.page.getByText('Cash at the shop, Monday to Saturday')).toBeVisible();
    // Nothing of the operator's or the client's contact details.
    const shown = await noScript.page.locator('body').innerText();
    expect(shown).not.toContain('meera@example.com');
    expect(shown).not.toContain('98470');
    const pay = owed.getByRole('link', { name: 'Pay ₹1,500.00 with UPI' });
    expect(await pay.getAttribute('href')).toBe(EXPECTED_UPI_URI);
    const scanned = await decodeQr(owed.getByRole('img', { name: 'UPI QR code to pay ₹1,500.00' }));
    expect(scanned).toBe(EXPECTED_UPI_URI);

    // The same page without JavaScript takes a claim through its plain form.
    await sendClaim(noScript.page, '500', 'UPI-NOSCRIPT-0001');
    await noScript.context.close();

    // The operator's page, open all along, shows that claim live.
    const claims = page.getByRole('list', { name: 'Reported payments' });
    await expect(claims).toContainText('UPI-NOSCRIPT-0001');
    await expect(page.getByRole('heading', { name: /Reported payments/ })).toContainText(
      '1 to check',
    );

    // The client again, JavaScript on, from the link "Share statement" made.
    const withScript = await clientBrowser(browser, true);
    await withScript.page.goto(url);
    await expect(withScript.page.getByRole('region', { name: 'Balance' })).toContainText(
      '₹1,500.00',
    );
    await sendClaim(withScript.page, '1,000', 'UPI-412345678901', 'Paid from my wife’s phone');
    await withScript.context.close();

    // Live again, no reload; the balance is untouched until the operator confirms.
    await expect(claims).toContainText('UPI-412345678901');
    await expect(claims).toContainText('₹1,000.00');
    await expect(page.getByRole('heading', { name: /Reported payments/ })).toContainText(
      '2 to check',
    );
    await expect(balance(page)).toContainText('₹1,500.00');
    await page.getByRole('button', { name: 'Confirm payment UPI-412345678901' }).click();
    await expect(balance(page)).toContainText('₹500.00');
    await expect(historyRow(page, 0)).toContainText('Payment');
    await expect(historyRow(page, 0)).toContainText(
      'Reference UPI-412345678901: Paid from my wife’s phone',
    );
    await expect(historyRow(page, 0)).toContainText('−₹1,000.00');
    await expect(claims).toContainText('Confirmed: booked as a payment');
    await expect(page.getByRole('heading', { name: /Reported payments/ })).toContainText(
      '1 to check',
    );
  });

  test('a revoked link answers the "link not valid" page', async ({
    browser,
    page,
    consoleErrors,
  }) => {
    // The revoked link's page answers 404 on purpose.
    consoleErrors.allow(/status of 404/);
    await register(page);
    const clientPath = await addOwingClient(page);
    await page.goto(clientPath);
    const { dialog, url } = await makeLink(page);

    const phone = await clientBrowser(browser, false);
    const before = await phone.page.goto(url);
    expect(before?.status()).toBe(200);

    const links = dialog.getByRole('table', { name: 'Statement links' });
    await links.getByRole('button', { name: /^Revoke the link made/ }).click();
    await links.getByRole('button', { name: 'Yes, revoke' }).click();
    await expect(links.getByRole('row').nth(1)).toContainText('Revoked');

    const after = await phone.page.goto(url);
    expect(after?.status()).toBe(404);
    await expect(phone.page.getByRole('heading', { name: 'Link not valid' })).toBeVisible();
    await expect(phone.page.getByText('Meera Pillai')).toHaveCount(0);
    await phone.context.close();
  });

  test('the statement page fits a 320 px phone: lakhs side by side, crores scrolled in their card, never the page', async ({
    browser,
    page,
  }) => {
    await register(page);
    const origin = new URL(page.url()).origin;
    const phone = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 320, height: 700 },
    });
    const phonePage = await phone.newPage();
    for (const [i, amount, fits] of [
      [0, '1,23,456.78', true],
      [1, '12,34,56,789.01', false],
    ] as const) {
      const plain = amount.replaceAll(',', '');
      const client = await page.request.post('/api/clients', {
        headers: { origin },
        data: { ...CLIENT, email: `lakh${i}@example.com`, balance: plain },
      });
      expect(client.status()).toBe(201);
      const { id } = (await client.json()) as { id: string };
      for (const kind of ['payment', 'charge']) {
        const entry = await page.request.post(`/api/clients/${id}/entries`, {
          headers: { origin },
          data: { kind, amount: plain },
        });
        expect(entry.status()).toBe(201);
      }
      const link = await page.request.post(`/api/clients/${id}/share-links`, {
        headers: { origin },
        data: {},
      });
      expect(link.status()).toBe(201);
      await phonePage.goto(((await link.json()) as { url: string }).url);
      await expect(phonePage.getByText(`₹${amount}`, { exact: true }).first()).toBeVisible();
      const widths = await phonePage.evaluate(() => {
        const table = document.querySelector('table');
        const box = table?.parentElement;
        const figure = document.querySelector('.amount');
        if (!table || !box || !figure) throw new Error('no table or figure');
        return {
          page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          table: box.scrollWidth - box.clientWidth,
          figure: figure.scrollWidth - figure.clientWidth,
        };
      });
      expect(widths.page, amount).toBe(0);
      expect(widths.figure, amount).toBe(0);
      if (fits) expect(widths.table, amount).toBe(0);
      else expect(widths.table, amount).toBeGreaterThan(0);
    }
    await phone.close();
  });

  test.describe('accessibility (axe)', () => {
    test.describe.configure({ timeout: 120_000 });
    for (const dark of [false, true]) {
      test(`the statement page, the Remind and Share dialogs and "Getting paid", ${dark ? 'dark' : 'light'} theme`, async ({
        browser,
        consoleErrors,
      }) => {
        // The refused claim answers 400 on purpose.
        consoleErrors.allow(/status of 400/);
        const theme = dark ? 'dark' : 'light';
        const context = await browser.newContext({
          colorScheme: theme,
          viewport: { width: 1280, height: 800 },
        });
        const page = await context.newPage();
        await register(page);
        const clientPath = await addOwingClient(page);
        await setUpGettingPaid(page);
        await expectAccessible(page, `settings, getting paid (${theme})`);

        await page.goto(clientPath);
        await page.getByRole('button', { name: 'Remind Meera Pillai' }).click();
        const remind = page.getByRole('dialog', { name: 'Remind Meera Pillai' });
        await remind.getByRole('button', { name: 'WhatsApp' }).click();
        await expect(remind.getByRole('link', { name: 'Open WhatsApp' })).toBeVisible();
        await expectAccessible(page, `remind dialog (${theme})`);
        await closeButton(remind).click();

        const { url } = await makeLink(page);
        await expectAccessible(page, `share statement dialog (${theme})`);
        await context.close();

        for (const width of [390, 1280]) {
          const phone = await browser.newContext({
            colorScheme: theme,
            viewport: { width, height: 844 },
          });
          const statement = await phone.newPage();
          await statement.goto(url);
          await expect(statement.getByRole('heading', { name: BUSINESS })).toBeVisible();
          await expectAccessible(statement, `statement page (${theme}, ${width} px)`);
          // A refused claim: the form again, with its errors beside the fields.
          await statement.getByLabel('Amount (₹)').fill('a lot');
          await statement.getByLabel('UPI or bank reference').fill('UPI-0000');
          await statement.getByRole('button', { name: 'Send' }).click();
          await expect(statement.getByRole('alert')).toHaveText('Some fields are not valid');
          await expect(statement.getByLabel('Amount (₹)')).toHaveAttribute('aria-invalid', 'true');
          await expectAccessible(
            statement,
            `statement page, claim refused (${theme}, ${width} px)`,
          );
          await phone.close();
        }
      });
    }
  });
});
