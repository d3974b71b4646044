import type { Locator, Page, Route } from '@playwright/test';
import {
  expect,
  login,
  logout,
  newEmail,
  PASSWORD,
  register,
  registerThroughForm,
  test,
} from './fixtures.ts';

const surnames = ['Kumar', 'Sharma', 'Verma', 'Iyer', 'Nair', 'Bose'];

/** A write through the API, as the app makes it; answers the body of its 201. */
async function created<T>(page: Page, url: string, data: object): Promise<T> {
  const origin = new URL(page.url()).origin;
  const response = await page.request.post(url, { headers: { origin }, data });
  expect(response.status(), url).toBe(201);
  return (await response.json()) as T;
}

/** Adds a client through the API (the same call the form makes); answers its id. */
async function addClient(page: Page, fields: Record<string, string>): Promise<string> {
  return (await created<{ id: string }>(page, '/api/clients', fields)).id;
}

/** Adds clients through the API, with varied balances. */
async function seedClients(page: Page, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const balance = i % 3 === 0 ? '0' : i % 3 === 1 ? String(100 + i) : String(-(50 + i));
    await addClient(page, {
      fname: `Person${String(i).padStart(3, '0')}`,
      lname: surnames[i % surnames.length] ?? 'Kumar',
      email: `person${i}@example.com`,
      phone: String(9_100_000_000 + i),
      balance,
    });
  }
}

/** The client says "I have paid" on a statement link of theirs, once for each reference. */
async function reportPayments(page: Page, clientId: string, references: string[]): Promise<void> {
  const { url } = await created<{ url: string }>(page, `/api/clients/${clientId}/share-links`, {});
  const token = url.split('/s/')[1];
  for (const reference of references) {
    await created(page, `/api/shared/${token}/claims`, { amount: '500.00', reference });
  }
}

/** How far the page runs past the screen's right edge (0: no sideways scroll). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** How many lines an element's text takes on the screen (its first `length` letters, if given). */
function linesOf(locator: Locator, length?: number): Promise<number> {
  return locator.evaluate((element, length) => {
    const range = document.createRange();
    const text = element.firstChild;
    if (length !== undefined && text) {
      range.setStart(text, 0);
      range.setEnd(text, length);
    } else range.selectNodeContents(element);
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  }, length);
}

const table = (page: Page) => page.getByRole('table', { name: 'Clients' });
// The first cell holds the row's checkbox; the first name comes after it.
const firstRowName = (page: Page) => table(page).getByRole('row').nth(1).getByRole('cell').nth(1);

// Balances as typed on add, for every test here.
test.use({ panelSettings: { disableBalanceOnAdd: false } });

test.describe('the list an operator works in', () => {
  test('find, sort, filter and page, with the whole view in the URL', async ({ page }) => {
    await register(page);
    await seedClients(page, 60);
    await page.goto('/dashboard');
    await expect(page.getByText('1–50 of 60')).toBeVisible();

    // "/" puts the cursor in the search box; typing narrows the list after a pause.
    await page.keyboard.press('/');
    const search = page.getByRole('searchbox', { name: 'Search clients' });
    await expect(search).toBeFocused();
    await search.pressSequentially('kumar');
    await expect(page).toHaveURL(/q=kumar/);
    await expect(page.getByText('1–10 of 10')).toBeVisible();
    await expect(table(page).getByRole('row')).toHaveCount(11);
    // The header shows the view's total and, beside it, the whole panel's.
    await expect(page.getByTestId('overall-owed')).toContainText('across all 60 clients');

    // Esc clears the search.
    await search.press('Escape');
    await expect(search).toHaveValue('');
    await expect(page.getByText('1–50 of 60')).toBeVisible();

    await search.fill('nobody-like-this');
    await expect(page.getByText('No clients match "nobody-like-this"')).toBeVisible();
    await search.fill('');

    // Sorting by a header toggles the direction and says so.
    const balanceHeader = table(page).getByRole('columnheader', { name: /Balance/ });
    await balanceHeader.getByRole('button').click();
    await expect(balanceHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/sort=balance/);
    await balanceHeader.getByRole('button').click();
    await expect(balanceHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(table(page).getByRole('row').nth(1)).toContainText('₹158.00');

    // The balance filter is counted and summed by the server.
    await page.getByLabel('Show').selectOption('owing');
    await expect(page).toHaveURL(/balance=owing/);
    await expect(page.getByText('1–20 of 20')).toBeVisible();
    await page.getByLabel('Show').selectOption('credit');
    await expect(table(page).getByRole('row').nth(1)).toContainText('in credit');
    await page.getByLabel('Show').selectOption('all');

    // Page sizes and numbers; a page change goes back to the top.
    await page.getByLabel('Clients per page').selectOption('25');
    await expect(page.getByText('1–25 of 60')).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole('button', { name: 'Page 3' }).click();
    await expect(page.getByText('51–60 of 60')).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

    // Reload, back and forward show the same views.
    const view = page.url();
    await page.reload();
    await expect(page.getByText('51–60 of 60')).toBeVisible();
    await page.goBack();
    await expect(page.getByText('1–25 of 60')).toBeVisible();
    await page.goForward();
    await expect(page.getByText('51–60 of 60')).toBeVisible();

    // Opening a client from page 3 and going back lands on page 3 of the same view.
    const name = await firstRowName(page).innerText();
    await table(page).getByRole('row').nth(1).getByRole('cell').nth(2).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
    await page.getByRole('link', { name: 'Back to Dashboard' }).click();
    await expect(page).toHaveURL(view);
    await expect(page.getByText('51–60 of 60')).toBeVisible();
  });

  test('"Export CSV" downloads the view as shown, every page of it', async ({ page }) => {
    await register(page);
    await seedClients(page, 60);
    await page.goto('/dashboard?balance=owing&sort=balance&dir=desc&size=25');
    await expect(page.getByText('1–20 of 20')).toBeVisible();
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^clients-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await (await download.createReadStream()).toArray();
    const lines = Buffer.concat(text).toString('utf8').trim().split('\n');
    expect(lines[0]).toBe('First Name,Last Name,Email,Phone,Balance,Language');
    expect(lines).toHaveLength(21);
    // Highest balance first, as the view sorts: Person058 owes 158.
    expect(lines[1]).toBe('Person058,Nair,person58@example.com,91000 00058,158.00,en');
    const balances = lines.slice(1).map((line) => line.split(',')[4] ?? '');
    expect(balances.every((balance) => balance !== '0.00' && !balance.startsWith('-'))).toBe(true);
  });

  test('picked rows are deleted in one request, and one Undo brings them all back', async ({
    page,
  }) => {
    await register(page);
    await seedClients(page, 6);
    const bulkCalls: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/api\/clients\/(delete|restore)$/.test(request.url())) {
        bulkCalls.push(new URL(request.url()).pathname);
      }
    });
    await page.goto('/dashboard');
    await expect(page.getByText('1–6 of 6')).toBeVisible();
    await expect(page.getByTestId('total-owed')).toHaveText('Total Owed : ₹98.00');

    await table(page).getByRole('checkbox', { name: 'Select Person001 Sharma' }).check();
    await table(page).getByRole('checkbox', { name: 'Select Person004 Nair' }).check();
    await expect(
      table(page).getByRole('checkbox', { name: 'Select all on this page' }),
    ).not.toBeChecked();
    const picked = page.getByRole('group', { name: 'Selected clients' });
    await expect(picked).toContainText('2 selected');
    await picked.getByRole('button', { name: 'Delete selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Are you sure ?' });
    await expect(dialog).toContainText('2 clients will be removed with their balances');
    await dialog.getByRole('button', { name: 'Delete' }).click();

    const deleted = page.getByRole('status').filter({ hasText: '2 clients deleted' });
    await expect(deleted).toBeVisible();
    await expect(page.getByText('1–4 of 4')).toBeVisible();
    await expect(
      table(page)
        .getByRole('row')
        .filter({ hasText: /Person00[14]/ }),
    ).toHaveCount(0);
    await expect(page.getByTestId('total-owed')).toHaveText('Total Owed : -₹107.00');
    await expect(picked).toHaveCount(0);

    await deleted.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByRole('status').filter({ hasText: '2 clients restored' })).toBeVisible();
    await expect(page.getByText('1–6 of 6')).toBeVisible();
    await expect(table(page).getByRole('row').filter({ hasText: 'Person004' })).toContainText(
      '₹104.00',
    );
    await expect(page.getByTestId('total-owed')).toHaveText('Total Owed : ₹98.00');
    expect(bulkCalls).toEqual(['/api/clients/delete', '/api/clients/restore']);
  });

  test('"Export selected" downloads just the rows picked on the page, in its order', async ({
    page,
  }) => {
    await register(page);
    await seedClients(page, 30);
    await page.goto('/dashboard?sort=balance&dir=desc&size=25&page=2');
    await expect(page.getByText('26–30 of 30')).toBeVisible();
    const selectAll = table(page).getByRole('checkbox', { name: 'Select all on this page' });
    await selectAll.check();
    const boxes = table(page).getByRole('checkbox', { name: /^Select Person/ });
    await expect(boxes).toHaveCount(5);
    for (const box of await boxes.all()) await expect(box).toBeChecked();
    const picked = page.getByRole('group', { name: 'Selected clients' });
    await expect(picked).toContainText('5 selected');

    const shown: string[] = [];
    for (const row of await table(page).getByRole('row').all()) {
      const cells = row.getByRole('cell');
      if ((await cells.count()) > 0) shown.push(await cells.nth(1).innerText());
    }
    const downloading = page.waitForEvent('download');
    await picked.getByRole('link', { name: 'Export selected' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^clients-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = Buffer.concat(await (await download.createReadStream()).toArray()).toString();
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('First Name,Last Name,Email,Phone,Balance,Language');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(shown);
    // Lowest balances on the last page: the credits, Person029 (-₹79.00) last.
    expect(lines.at(-1)).toBe('Person029,Bose,person29@example.com,91000 00029,-79.00,en');

    // Another page starts with nothing picked.
    await page.getByRole('button', { name: 'Page 1' }).click();
    await expect(page.getByText('1–25 of 30')).toBeVisible();
    await expect(selectAll).not.toBeChecked();
    await expect(picked).toHaveCount(0);
  });

  test('changes made elsewhere keep the place and update counts and totals', async ({ page }) => {
    await register(page);
    await seedClients(page, 30);
    await page.goto('/dashboard?size=25&page=2');
    await expect(page.getByText('26–30 of 30')).toBeVisible();
    await expect(page.getByTestId('total-owed')).toContainText('₹490.00');
    // A client added elsewhere (here, straight through the API) reaches this page live:
    // the count and the total follow, and the operator stays on page 2.
    const origin = new URL(page.url()).origin;
    const created = await page.request.post('/api/clients', {
      headers: { origin },
      data: {
        fname: 'Zed',
        lname: 'Zulu',
        email: 'z@example.com',
        phone: '9876500000',
        balance: '5',
      },
    });
    expect(created.status()).toBe(201);
    await expect(page.getByText('26–31 of 31')).toBeVisible();
    await expect(page.getByTestId('total-owed')).toContainText('₹495.00');
    await expect(page).toHaveURL(/page=2/);
    await expect(table(page).getByRole('row').last()).toContainText('Zulu');
  });
});

/** What the loaded summary says, in each language, once every part of it is in. */
const LOADED_SUMMARY = {
  en: {
    row: /^Details of Person000|^Person000 /,
    owing: 'Owed to you',
    owingClients: /by \d+ clients?/,
    oldestBucket: 'Over 90 days',
    chartRange: /^From ₹0\.00 on /,
  },
  hi: {
    row: /^Person000 .*का विवरण$|^Person000 /,
    owing: 'आपको मिलना है',
    owingClients: /\d+ ग्राहक/,
    oldestBucket: '90 दिन से ज़्यादा',
    chartRange: /को ₹0\.00 से /,
  },
} as const;

for (const [width, language, amounts] of [
  [1280, 'en', 'small'],
  [390, 'en', 'small'],
  [360, 'en', 'small'],
  [390, 'hi', 'small'],
  // The largest balance there is, owed and held: on a phone no line of the summary may wrap
  // for it (the ageing's buckets did, and the rows moved down by 119 px).
  [320, 'en', 'largest'],
  [360, 'hi', 'largest'],
] as const) {
  test(`the rows stay where they are while the totals above them load, ${width} px, ${language}, ${amounts} amounts`, async ({
    browser,
  }) => {
    const context = await browser.newContext({
      viewport: { width, height: 844 },
      locale: language === 'hi' ? 'hi-IN' : 'en-IN',
    });
    const page = await context.newPage();
    await register(page);
    const origin = new URL(page.url()).origin;
    const chosen = await page.request.put('/api/account/preferences', {
      headers: { origin },
      data: { language },
    });
    expect(chosen.status()).toBe(200);
    await seedClients(page, 2);
    if (amounts === 'largest') {
      for (const [i, balance] of ['9999999999.99', '-9999999999.99'].entries()) {
        await addClient(page, {
          fname: `Crorepati${i}`,
          lname: 'Kumar',
          email: `crorepati${i}@example.com`,
          phone: String(9_200_000_000 + i),
          balance,
        });
      }
    }
    // The totals, their chart, the ageing and the summary's code all come after the rows, and
    // so does the navbar's book menu (its code), beside the operator's long e-mail address.
    const late = async (route: Route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    };
    await page.route(/\/api\/(totals|ageing)/, late);
    await page.route(/\/assets\/(ledger-summary|book-menu)-[^/]*\.js$/, late);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    const words = LOADED_SUMMARY[language];
    const row = page.getByRole('link', { name: words.row });
    await expect(row).toBeVisible();
    const before = await row.boundingBox();
    await expect(page.getByRole('region', { name: words.owing })).toContainText(words.owingClients);
    await expect(page.getByRole('link', { name: words.oldestBucket })).toBeVisible();
    await expect(page.getByText(words.chartRange)).toBeVisible();
    await expect(page.getByTestId('current-book')).toBeVisible();
    expect(await row.boundingBox()).toEqual(before);
    await context.close();
  });
}

test('at 390 px the list is cards with no sideways scroll, and the menu collapses', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await register(page);
  await seedClients(page, 7);
  // A long name with payments its client reported: both seen whole on the card.
  const id = await addClient(page, {
    fname: 'Venkataramanan',
    lname: "Subramaniam D'Souza & Sons",
    email: 'venkat@example.com',
    phone: '98765 43210',
    balance: '4735.06',
  });
  await reportPayments(page, id, ['UPI 41235', 'UPI 41236']);
  await page.goto('/dashboard');
  const cards = page.getByRole('list', { name: 'Clients' });
  await expect(cards.getByRole('listitem')).toHaveCount(8);
  await expect(table(page)).toBeHidden();
  const card = cards.getByRole('listitem').filter({ hasText: 'Venkataramanan' });
  const badge = card.getByText('2 reported payments');
  await expect(badge).toBeVisible();
  const name = card.getByText("Venkataramanan Subramaniam D'Souza & Sons");
  await expect(name).toBeVisible();
  // Not cut off: the name's text needs no more room than it has, and the badge is inside it.
  const cut = await name.evaluate((element) => element.scrollWidth > element.clientWidth);
  expect(cut).toBe(false);
  const [badgeBox, nameBox] = [await badge.boundingBox(), await name.boundingBox()];
  expect(badgeBox && nameBox && badgeBox.x + badgeBox.width <= nameBox.x + nameBox.width).toBe(
    true,
  );
  expect(await sideways(page)).toBe(0);
  // "New" comes before the rows.
  const newBox = await page.getByRole('link', { name: 'New' }).boundingBox();
  const listBox = await cards.boundingBox();
  expect(newBox && listBox && newBox.y < listBox.y).toBe(true);
  // The navbar collapses behind a menu button.
  await expect(page.getByRole('button', { name: 'Logout' })).toBeHidden();
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await page.getByRole('button', { name: 'Menu' }).click();
  // A tap on a card opens the client.
  await cards.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/client\/[0-9a-f-]{36}$/);
  await context.close();
});

test('at 1280 px a long e-mail address wraps between its parts only, and the table, every column full, fits its column', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await register(page);
  const people = [
    ['Suresh', 'Krishnamurthy', 'suresh.krishnamurthy1987@gmail.com'],
    ['Rahul', 'Sharma', 'rahul.sharma.accounts@kumarstores.co.in'],
    ['Meera', 'Pillai', 'meera.pillai@example.com'],
  ];
  const today = ((await (await page.request.get('/api/totals')).json()) as { today: string }).today;
  const longAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 120 * 86_400_000);
  for (const [fname = '', lname = '', email = ''] of people) {
    const id = await addClient(page, {
      fname,
      lname,
      email,
      phone: '98765 43210',
      balance: '1500',
    });
    // Overdue for months, reminded, and with a payment its client reported: every column full.
    await created(page, `/api/clients/${id}/entries`, {
      kind: 'charge',
      amount: '48250.75',
      on: longAgo.toISOString().slice(0, 10),
    });
    await created(page, `/api/clients/${id}/reminders`, { channel: 'copy', message: 'Please pay' });
    await reportPayments(page, id, ['UPI 90210']);
  }
  await page.goto('/dashboard');
  await expect(table(page).getByText('1 reported payment')).toHaveCount(3);
  for (const [, , email = ''] of people) {
    const cell = table(page).getByRole('cell', { name: email, exact: true });
    // Each of its pieces (up to the @, a dot, digits after letters) sits on one line.
    const linesEachPiece = await cell.evaluate((element) => {
      const pieces: (readonly [string | null, number])[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(node);
        pieces.push([node.textContent, range.getClientRects().length]);
      }
      return pieces;
    });
    expect(linesEachPiece.length, email).toBeGreaterThan(1);
    for (const [piece, lines] of linesEachPiece) expect(lines, `${email}: ${piece}`).toBe(1);
  }
  // Nothing to scroll sideways to, beside the dashboard's totals: every row's Details button is
  // in the column.
  const scroller = page.locator('.table-responsive', { has: table(page) });
  const widths = await scroller.evaluate((element) => [element.scrollWidth, element.clientWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1] ?? 0);
});

test('pages have titles, a skip link, and the heading takes the focus after navigation', async ({
  page,
}) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('Login · Client Panel');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await registerThroughForm(page);
  await expect(page).toHaveTitle('Dashboard · Client Panel');
  await expect(page.getByRole('heading', { name: 'Clients' })).toBeFocused();
  await page.getByRole('link', { name: 'New' }).click();
  await expect(page).toHaveTitle('Add Client · Client Panel');
  await expect(page.getByRole('heading', { name: 'Add Client' })).toBeFocused();
});

test('dark mode follows the system until chosen, and the choice is remembered', async ({
  browser,
}) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/login');
  const theme = () => page.evaluate(() => document.documentElement.dataset.bsTheme);
  expect(await theme()).toBe('dark');
  await page.getByRole('button', { name: 'Use the light theme' }).click();
  expect(await theme()).toBe('light');
  await page.reload();
  expect(await theme()).toBe('light');
  await page.getByRole('button', { name: 'Use the dark theme' }).click();
  expect(await theme()).toBe('dark');
  await context.close();
});

test('the delete dialog names the client and what they owe', async ({ page }) => {
  await register(page);
  await seedClients(page, 2);
  await page.goto('/dashboard');
  await table(page)
    .getByRole('link', { name: /Details of Person001/ })
    .click();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Are you sure ?' });
  await expect(dialog).toContainText('Person001 Sharma, who owes ₹101.00, will be removed');
  // Shift+Tab goes round the dialog's buttons backwards, as Tab does forwards.
  const buttons = dialog.getByRole('button');
  const count = await buttons.count();
  expect(count).toBeGreaterThan(2);
  await buttons.first().focus();
  await page.keyboard.press('Shift+Tab');
  await expect(buttons.last()).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(buttons.nth(count - 2)).toBeFocused();
  await buttons.last().focus();
  await page.keyboard.press('Tab');
  await expect(buttons.first()).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('"Undo" brings a deleted client back, with its balance in the total', async ({ page }) => {
  await register(page);
  await seedClients(page, 3);
  await page.goto('/dashboard');
  await expect(page.getByTestId('total-owed')).toHaveText('Total Owed : ₹49.00');
  await table(page)
    .getByRole('link', { name: /Details of Person001/ })
    .click();
  await page.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Are you sure ?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const removed = page.getByRole('status').filter({ hasText: 'Client Removed' });
  await expect(removed).toBeVisible();
  await expect(page.getByTestId('total-owed')).toHaveText('Total Owed : -₹52.00');
  await removed.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Client Restored' })).toBeVisible();
  await expect(table(page).getByRole('row').filter({ hasText: 'Person001' })).toContainText(
    '₹101.00',
  );
  await expect(page.getByTestId('total-owed')).toHaveText('Total Owed : ₹49.00');
});

test('a failure message goes once the operator succeeds', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 401/);
  const email = await register(page);
  await logout(page);
  await login(page, email, 'the wrong password');
  await expect(page.getByRole('alert').getByText('Invalid email or password')).toBeVisible();
  await login(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('status').getByText('Logged in Success !!')).toBeVisible();
  await expect(page.getByText('Invalid email or password')).toHaveCount(0);
});

test('a client whose name is one word of 100 letters keeps every page within the screen', async ({
  browser,
}) => {
  const name = `लक्ष्मीनारायण${'अ'.repeat(87)}`;
  expect([...name].length).toBeLessThanOrEqual(100);
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
    { width: 320, height: 700 },
  ]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await register(page);
    const id = await addClient(page, {
      fname: name,
      lname: name,
      email: 'long@example.com',
      phone: '98765 00001',
      balance: '1500.00',
    });
    for (const path of ['/dashboard', '/clients', `/client/${id}`]) {
      await page.goto(path);
      await expect(page.getByText(name).filter({ visible: true }).first()).toBeVisible();
      // The activity line names the client too (on the client's page).
      if (path.startsWith('/client/')) {
        await expect(page.getByRole('list', { name: 'Activity' })).toContainText(name);
      }
      expect(await sideways(page), `${path} at ${viewport.width} px`).toBe(0);
      // The buttons beside the name keep their words whole: the name is what wraps.
      if (path === '/dashboard') {
        const remind = page.getByRole('button', { name: /Remind/ }).filter({ visible: true });
        await expect(remind.first()).toBeVisible();
        expect(await linesOf(remind.first()), `Remind at ${viewport.width} px`).toBe(1);
      }
    }
    await context.close();
  }
});

test('at 320 px a card with the largest balance keeps its name readable and its balance clear of Remind, and a net credit stays one line', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 320, height: 700 } });
  const page = await context.newPage();
  await register(page);
  // Together a net credit: the list's "Total Owed" starts with a minus sign.
  for (const [i, balance] of ['-9999999999.99', '9999999999.99', '-5000000000'].entries()) {
    await addClient(page, {
      fname: 'Venkataramanan',
      lname: `Subramaniam${i}`,
      email: `venkat${i}@example.com`,
      phone: String(9_300_000_000 + i),
      balance,
    });
  }
  await page.goto('/dashboard');
  const cards = page.getByRole('list', { name: 'Clients' });
  for (const [i, figure] of ['₹9,99,99,99,999.99 in credit', '₹9,99,99,99,999.99'].entries()) {
    const card = cards.getByRole('listitem').filter({ hasText: `Subramaniam${i}` });
    const name = card.getByText(`Venkataramanan Subramaniam${i}`);
    const balance = card.getByText(figure, { exact: true });
    const remind = card.getByRole('button', { name: /Remind/ });
    await expect(balance).toBeVisible();
    const [nameBox, balanceBox, remindBox] = await Promise.all(
      [name, balance, remind].map((locator) => locator.boundingBox()),
    );
    if (!nameBox || !balanceBox || !remindBox) throw new Error('a part of the card has no box');
    // Squeezed beside the balance, the name was one letter a line.
    expect(nameBox.width, figure).toBeGreaterThan(110);
    // The balance, put under the name, ends before the button begins.
    expect(balanceBox.x + balanceBox.width, figure).toBeLessThanOrEqual(remindBox.x);
    // Its figure is whole on one line ("in credit" may take the next).
    expect(await linesOf(balance, '₹9,99,99,99,999.99'.length), figure).toBe(1);
  }
  // The total, a net credit, is one line: it broke after its minus sign.
  const total = page
    .getByText('-₹5,00,00,00,000.00', { exact: true })
    .filter({ visible: true })
    .first();
  await expect(total).toBeVisible();
  expect(await linesOf(total)).toBe(1);
  expect(await sideways(page)).toBe(0);
  await context.close();
});

test('the navbar stays within the screen beside a long e-mail address and book name, at 320 to 1400 px', async ({
  browser,
}) => {
  for (const width of [320, 768, 1024, 1200, 1400]) {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    // The book is named after the account: both are the 40-odd letters of this address.
    const email = await register(page, newEmail('ramesh.venkataraman.accounts'));
    await expect(page.getByTestId('current-book')).toBeVisible();
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    const logout = page.getByRole('button', { name: 'Logout' });
    await expect(logout).toBeVisible();
    const box = await logout.boundingBox();
    expect(box && box.x + box.width <= width, `Logout at ${width} px`).toBe(true);
    await expect(page.getByTestId('navbar-email')).toContainText(email);
    expect(await sideways(page), `${width} px`).toBe(0);
    await context.close();
  }
});
