import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from '@playwright/test';
import { expectAccessible } from './accessibility.ts';
import { test as base, expect, login, register, startPanel } from './fixtures.ts';

// Issue 21's story end to end: a client with a charge due in the past is on the day's round;
// the operator reminds them and records their promise, and they leave it. The next day the
// promise is broken and they are back for that; a payment dated the promised day keeps it.

const DAY_MS = 86_400_000;
const SHIFT_CLOCK = fileURLToPath(new URL('./shift-clock.mjs', import.meta.url));

/** Moves the panel's clock this far ahead of the real one (0: back to the real time). */
type ShiftClock = (ms: number) => void;

/*
 * This file's tests get a panel of their own, whose clock they move (so the panels of the
 * other specs keep the real date): a worker fixture of a different kind, which Playwright runs
 * in workers of their own. shift-clock.mjs, preloaded, reads the shift from a file.
 */
const test = base.extend<{ clockAtNow: undefined }, { clockFile: string; shiftClock: ShiftClock }>({
  clockFile: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a fixture uses from this parameter.
    async ({}, use) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-clock-'));
      await use(path.join(dir, 'shift-ms'));
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],
  shiftClock: [
    async ({ clockFile }, use) => {
      await use((ms) => writeFileSync(clockFile, String(ms)));
    },
    { scope: 'worker' },
  ],
  panel: [
    async ({ clockFile }, use) => {
      const nodeOptions = [process.env.NODE_OPTIONS, `--import=${SHIFT_CLOCK}`];
      const panel = await startPanel({
        env: {
          NODE_OPTIONS: nodeOptions.filter(Boolean).join(' '),
          CLOCK_SHIFT_FILE: clockFile,
        },
      });
      await use(panel);
      await panel.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  // Whatever day the test before left the panel on, each test starts today.
  clockAtNow: [
    async ({ shiftClock }, use) => {
      shiftClock(0);
      await use(undefined);
      shiftClock(0);
    },
    { auto: true },
  ],
});

/** The panel's date today (its TIME_ZONE), as the signed-in page's API answers it. */
async function panelToday(page: Page): Promise<string> {
  const response = await page.request.get('/api/totals');
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { today: string }).today;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** A date as the round writes it near today: "26 Nov". */
function shortDay(date: string): string {
  return new Intl.DateTimeFormat('en-IN', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}

interface Seeded {
  id: string;
  name: string;
}

/**
 * A client owing `amount` for a charge dated `daysAgo` days before the panel's today (due at
 * once: the payment terms are 0 days), through the API (the forms have their own tests).
 */
async function addOverdueClient(
  page: Page,
  client: { fname: string; lname: string; phone: string; email: string },
  amount: string,
  daysAgo: number,
): Promise<Seeded> {
  const origin = new URL(page.url()).origin;
  const created = await page.request.post('/api/clients', {
    headers: { origin },
    // What is owed comes from the charge, dated in the past, not from an opening balance.
    data: { ...client, balance: '0' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const on = addDays(await panelToday(page), -daysAgo);
  const charge = await page.request.post(`/api/clients/${id}/entries`, {
    headers: { origin },
    data: { kind: 'charge', amount, on, note: 'Groceries on account' },
  });
  expect(charge.status(), await charge.text()).toBe(201);
  return { id, name: `${client.fname} ${client.lname}` };
}

const RAVI = { fname: 'Ravi', lname: 'Kumar', phone: '98450 11223', email: 'ravi@example.com' };
const ASHA = { fname: 'Asha', lname: 'Verma', phone: '98860 44556', email: 'asha@example.com' };

const roundTable = (page: Page) => page.getByRole('table', { name: 'Clients to see today' });
const rowOf = (page: Page, name: string) =>
  roundTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name }) });
const progress = (page: Page, text: string) => page.getByRole('progressbar', { name: text });
/** A dialog's own Close button, in its footer (the header's × is named Close too). */
const closeButton = (dialog: Locator) => dialog.getByRole('button', { name: 'Close' }).last();

/** The Collect page, from the navbar. */
async function openCollect(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  // At a phone's width the navbar's links are behind its menu button.
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation').getByRole('link', { name: 'Collect', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Collect', level: 1 })).toBeVisible();
}

test.describe('the collection round', () => {
  // Two days of a round, or three axe runs, with two browsers and two panels on two shared
  // cores: an axe run alone can take 20 s there.
  test.describe.configure({ timeout: 180_000 });

  test('a client overdue is reminded and promises, leaves the round, comes back the next day for the broken promise, and a payment on the promised day keeps it', async ({
    page,
    shiftClock,
  }) => {
    const email = await register(page);
    const ravi = await addOverdueClient(page, RAVI, '1500', 30);
    const today = await panelToday(page);

    // The dashboard's first link when there is work.
    await page.reload();
    await page.getByRole('link', { name: 'Collect (1 to do)' }).click();
    await expect(page.getByRole('heading', { name: 'Collect', level: 1 })).toBeVisible();
    await expect(progress(page, '0 of 1 done today')).toBeVisible();
    const row = rowOf(page, ravi.name);
    await expect(row).toContainText('₹1,500.00');
    await expect(row.getByRole('listitem')).toHaveText([
      '₹1,500.00 overdue 30 days, never reminded',
    ]);

    // The reminder: the server makes the WhatsApp link, the phone sends it.
    await row.getByRole('button', { name: `Remind ${ravi.name}` }).click();
    const remind = page.getByRole('dialog', { name: `Remind ${ravi.name}` });
    await expect(remind.getByLabel('Message')).toHaveValue(/₹1,500\.00/);
    await remind.getByRole('button', { name: 'WhatsApp' }).click();
    const open = remind.getByRole('link', { name: 'Open WhatsApp' });
    await expect(open).toBeVisible();
    const whatsapp = new URL((await open.getAttribute('href')) ?? '');
    expect(`${whatsapp.origin}${whatsapp.pathname}`).toBe('https://wa.me/919845011223');
    // Reminded: the client has left the round, behind the dialog that stays open.
    await expect(page.getByText('1 of 1 done today')).toBeVisible();
    await expect(page.getByText('Nothing to collect today')).toBeVisible();

    // On the same call the client promises to pay today.
    const promise = remind.getByRole('region', { name: 'Promise to pay' });
    await promise.getByRole('button', { name: 'Record a promise' }).click();
    const form = promise.getByRole('form', { name: `Promise from ${ravi.name}` });
    await expect(form.getByLabel('Amount (₹)')).toHaveValue('1500.00');
    await form.getByLabel('Will pay by').fill(today);
    await form.getByLabel('Note (optional)').fill('Will send it by UPI this evening');
    await form.getByRole('button', { name: 'Save promise' }).click();
    await expect(promise).toContainText(`Promised: ₹1,500.00 by ${shortDay(today)}`);
    await expect(promise).toContainText('Open');
    await closeButton(remind).click();
    await expect(remind).toBeHidden();

    // Reminded and promised: done for today.
    await expect(roundTable(page)).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Nothing to collect today' })).toBeVisible();
    await expect(progress(page, '1 of 1 done today')).toBeVisible();

    // The next day, unpaid: the session of yesterday has idled out, the operator signs in again.
    // Only the panel's clock moves: the web app takes its today from the panel (the totals).
    await page.goto('about:blank');
    shiftClock(DAY_MS);
    await login(page, email);
    await expect(page).toHaveURL(/\/dashboard$/);
    const tomorrow = addDays(today, 1);
    await expect.poll(() => panelToday(page)).toBe(tomorrow);

    await openCollect(page);
    await expect(progress(page, '0 of 1 done today')).toBeVisible();
    // Back for the broken promise only: the reminder of yesterday still counts.
    await expect(row.getByRole('listitem')).toHaveText([
      `Promise broken (was due ${shortDay(today)})`,
    ]);

    // The client paid yesterday after all, as promised: the payment is booked on that day.
    await row.getByRole('button', { name: `Record payment from ${ravi.name}` }).click();
    const payment = page.getByRole('form', { name: 'Record payment' });
    await expect(payment.getByLabel('Date')).toHaveValue(tomorrow);
    await payment.getByLabel('Amount (₹)').fill('1500');
    await payment.getByLabel('Date').fill(today);
    await payment.getByRole('button', { name: 'Save payment' }).click();
    await expect(roundTable(page)).toBeHidden();
    await expect(progress(page, '1 of 1 done today')).toBeVisible();

    // The client's page: the promise was kept.
    await page.goto(`/client/${ravi.id}`);
    const promises = page.getByRole('region', { name: 'Promises to pay' });
    await expect(promises).toContainText('Kept 1 of 1 promise');
    await expect(promises).toContainText('No open promise.');
    const made = promises.getByRole('list', { name: 'Promises made' }).getByRole('listitem');
    await expect(made).toHaveCount(1);
    await expect(made).toContainText(`₹1,500.00 by ${shortDay(today)}`);
    await expect(made).toContainText('Kept');
    await expect(made).toContainText('Will send it by UPI this evening');
  });

  test.describe('accessibility (axe)', () => {
    /** A signed-in operator with two overdue clients, in a browser of this theme and width. */
    async function operatorWithRound(browser: Browser, dark: boolean, width: number) {
      const context = await browser.newContext({
        colorScheme: dark ? 'dark' : 'light',
        viewport: { width, height: 844 },
      });
      const page = await context.newPage();
      await register(page);
      const ravi = await addOverdueClient(page, RAVI, '2000', 40);
      const asha = await addOverdueClient(page, ASHA, '1200', 10);
      await openCollect(page);
      return { context, page, ravi, asha };
    }

    for (const dark of [false, true]) {
      const theme = dark ? 'dark' : 'light';

      test(`the Collect page and its dialogs, ${theme} theme, desktop`, async ({ browser }) => {
        const { context, page, ravi, asha } = await operatorWithRound(browser, dark, 1280);
        // Biggest overdue first.
        await expect(roundTable(page).getByRole('rowheader')).toHaveText([ravi.name, asha.name]);
        await expectAccessible(page, `the round (${theme}, desktop)`);

        await rowOf(page, ravi.name)
          .getByRole('button', { name: `Remind ${ravi.name}` })
          .click();
        const remind = page.getByRole('dialog', { name: `Remind ${ravi.name}` });
        await expect(remind.getByLabel('Message')).toHaveValue(/₹2,000\.00/);
        await expectAccessible(page, `the reminder dialog (${theme}, desktop)`);
        await closeButton(remind).click();
        await expect(remind).toBeHidden();

        await rowOf(page, asha.name)
          .getByRole('button', { name: `Promise from ${asha.name}` })
          .click();
        const promise = page.getByRole('dialog', { name: `Promise to pay: ${asha.name}` });
        await expect(promise.getByLabel('Amount (₹)')).toHaveValue('1200.00');
        await expectAccessible(page, `the promise dialog (${theme}, desktop)`);
        await promise.getByRole('button', { name: 'Save promise' }).click();
        await expect(promise).toBeHidden();
        await expect(rowOf(page, asha.name)).toHaveCount(0);
        await expect(progress(page, '1 of 2 done today')).toBeVisible();
        await context.close();
      });

      test(`the Collect page's cards, ${theme} theme, 390 px`, async ({ browser }) => {
        const { context, page, ravi, asha } = await operatorWithRound(browser, dark, 390);
        // One card at a time, "Next" to leave a client for later.
        await expect(roundTable(page)).toBeHidden();
        const card = page.getByRole('region', { name: ravi.name });
        await expect(card).toContainText('Client 1 of the 2 left');
        await expect(card).toContainText('₹2,000.00 overdue 40 days, never reminded');
        await expectAccessible(page, `the round's card (${theme}, 390 px)`);
        await card.getByRole('button', { name: 'Next' }).click();
        const next = page.getByRole('region', { name: asha.name });
        await expect(next).toContainText('Client 2 of the 2 left');
        await next.getByRole('button', { name: `Record payment from ${asha.name}` }).click();
        await expect(next.getByRole('form', { name: 'Record payment' })).toBeVisible();
        await expectAccessible(page, `the card's payment form (${theme}, 390 px)`);
        await context.close();
      });
    }
  });
});
