import type { Browser, Page } from '@playwright/test';
import { expect, newEmail, PASSWORD, register, setSettings, test } from './fixtures.ts';

// Issue 23's story end to end: the owner invites a staff member by link, who joins from
// another browser, records a payment the owner sees live and finds no Delete or Export; the
// owner removes them, and their page is out of the book at once; the activity log says who
// did what.

const CLIENT = { fname: 'Meera', lname: 'Pillai', phone: '98470 12345' };

/** A browser of its own (its own cookies), with an operator registered and on the dashboard. */
async function operatorBrowser(browser: Browser, prefix: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = await register(page, newEmail(prefix));
  return { context, page, email };
}

/** The navbar's current book: its menu button is named "Book: <name>". */
const bookButton = (page: Page) => page.getByRole('button', { name: /^Book: / });

async function currentBookName(page: Page): Promise<string> {
  await expect(bookButton(page)).toBeVisible();
  return (await bookButton(page).getAttribute('aria-label'))?.replace(/^Book: /, '') ?? '';
}

/** A client, through the API (the add form has its own tests): their page's path. */
async function addClient(page: Page): Promise<string> {
  const response = await page.request.post('/api/clients', {
    headers: { origin: new URL(page.url()).origin },
    data: { ...CLIENT, email: 'meera@example.com', balance: '0' },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  return `/client/${id}`;
}

/** Settings → the book's card → an invitation for `role`: the link, shown once. */
async function invite(page: Page, role: 'Manager' | 'Staff' | 'Viewer'): Promise<string> {
  await page.goto('/settings');
  const form = page.getByRole('form', { name: 'Invite someone' });
  await form.getByLabel('Their role').selectOption({ label: role });
  await form.getByRole('button', { name: 'Make an invitation link' }).click();
  const link = page.getByRole('textbox', { name: 'Invitation link' });
  await expect(link).toHaveValue(/\/invite\/[A-Za-z0-9_-]{22,}$/);
  await expect(page.getByText(/Shown only now/)).toBeVisible();
  return link.inputValue();
}

test('the owner invites staff, who record a payment the owner sees live, find no Delete or Export, and are out of the book once removed', async ({
  browser,
  consoleErrors,
}) => {
  // The moment the staff member is removed, what their page was reading is refused: expected.
  consoleErrors.allow(/Failed to load resource: the server responded with a status of 40[349]/);

  const owner = await operatorBrowser(browser, 'owner');
  const book = await currentBookName(owner.page);
  const clientPage = await addClient(owner.page);
  const url = await invite(owner.page, 'Staff');

  // The staff member, in a browser of their own, signed in: the link joins them to the book.
  const staff = await operatorBrowser(browser, 'staff');
  const ownBook = await currentBookName(staff.page);
  await staff.page.goto(new URL(url).pathname);
  await staff.page.getByRole('button', { name: 'Join the book' }).click();
  await expect(
    staff.page.getByRole('status').filter({ hasText: `You joined ${book} as Staff` }),
  ).toBeVisible();
  await expect(staff.page).toHaveURL(/\/dashboard$/);
  await expect(staff.page.getByRole('button', { name: `Book: ${book}` })).toBeVisible();

  // Staff add clients but neither import nor export them.
  await expect(staff.page.getByRole('link', { name: 'Meera' }).first()).toBeVisible();
  await expect(staff.page.getByRole('link', { name: 'New' })).toBeVisible();
  await expect(staff.page.getByRole('button', { name: 'Import' })).toHaveCount(0);
  await expect(staff.page.getByRole('link', { name: 'Export CSV' })).toHaveCount(0);
  await expect(staff.page.getByRole('link', { name: 'Download CSV' })).toHaveCount(0);

  // The owner watches the client's page while staff record a payment on theirs.
  await owner.page.goto(clientPage);
  await expect(owner.page.getByRole('heading', { name: 'Meera Pillai' })).toBeVisible();

  await staff.page.goto(clientPage);
  await expect(staff.page.getByRole('heading', { name: 'Meera Pillai' })).toBeVisible();
  await expect(staff.page.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(staff.page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(staff.page.getByRole('button', { name: 'Edit balance' })).toHaveCount(0);
  await staff.page.getByRole('button', { name: 'Record payment' }).click();
  const payment = staff.page.getByRole('form', { name: 'Record payment' });
  await payment.getByLabel('Amount (₹)').fill('500');
  await payment.getByRole('button', { name: /^Save/ }).click();
  await expect(payment).toBeHidden();

  // Live on the owner's page, without a reload: the payment, and who recorded it.
  await expect(
    owner.page.getByRole('table', { name: 'History' }).getByRole('row').nth(1),
  ).toContainText('500.00');
  await expect(owner.page.getByRole('list', { name: 'Activity' })).toContainText(
    `${staff.email} recorded a payment of ₹500.00 from Meera Pillai`,
  );

  // The owner removes them, on a phone; their page leaves the book at once and says so.
  await owner.page.setViewportSize({ width: 390, height: 844 });
  await owner.page.goto('/settings');
  const members = owner.page.getByRole('table', { name: 'Members' });
  await expect(members).toContainText(staff.email);
  // The role's name is readable and Remove is on screen, not cut off by the table's edge.
  const role = members.getByRole('combobox', { name: `Role of ${staff.email}` });
  expect((await role.boundingBox())?.width ?? 0).toBeGreaterThanOrEqual(96);
  const overflow = await members.evaluate(
    (table) => (table.parentElement?.scrollWidth ?? 0) - (table.parentElement?.clientWidth ?? 0),
  );
  expect(overflow, 'the members table is wider than the page').toBeLessThanOrEqual(0);
  await members.getByRole('button', { name: `Remove ${staff.email}` }).click();
  const confirm = owner.page.getByRole('dialog', { name: 'Remove this member?' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(
    owner.page.getByRole('status').filter({ hasText: `${staff.email} is no longer a member` }),
  ).toBeVisible();
  await expect(members).not.toContainText(staff.email);

  await expect(
    staff.page.getByRole('alert').filter({ hasText: `You are no longer a member of ${book}` }),
  ).toBeVisible();
  await expect(staff.page).toHaveURL(/\/dashboard$/);
  await expect(staff.page.getByRole('button', { name: `Book: ${ownBook}` })).toBeVisible();
  await expect(staff.page.getByRole('link', { name: 'Meera' })).toHaveCount(0);

  // The activity log names who did what, newest first; one member's, when asked.
  await owner.page.goto('/activity');
  const log = owner.page.getByRole('list', { name: 'Activity' });
  const removed = `${owner.email} removed ${staff.email} from the book`;
  await expect(log).toContainText(removed);
  await expect(log).toContainText(`${staff.email} recorded a payment of ₹500.00 from Meera Pillai`);
  await expect(log).toContainText(`${staff.email} joined the book`);
  await expect(log).toContainText(`${owner.email} made an invitation to join as Staff`);
  await expect(log.getByRole('listitem').first()).toContainText(removed);
  await owner.page.getByLabel('Member').selectOption({ label: staff.email });
  await expect(log).not.toContainText(removed);
  await expect(log).toContainText(`${staff.email} recorded a payment of ₹500.00 from Meera Pillai`);

  await owner.context.close();
  await staff.context.close();
});

test('someone without an account registers with the invitation, even while registrations are closed, and is in the book', async ({
  browser,
  panel,
  consoleErrors,
}) => {
  // The used link's refusal, provoked at the end.
  consoleErrors.allow(/Failed to load resource: the server responded with a status of 404/);
  const owner = await operatorBrowser(browser, 'owner');
  const book = await currentBookName(owner.page);
  const url = await invite(owner.page, 'Viewer');
  await setSettings(panel, { 'Allow Registration': false });

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL(url).pathname);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/register\?invite=/);
  await page.getByLabel('Email').fill(newEmail('invited'));
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Their own book is made too; the one they were invited to is among their books, as viewer.
  await bookButton(page).click();
  await expect(page.getByRole('button', { name: `${book} (Viewer)` })).toBeVisible();

  // The link worked once: opened again, it says so at once and offers nothing.
  await page.goto(new URL(url).pathname);
  await expect(page.getByText(/unknown, already used or expired/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Join the book' })).toHaveCount(0);

  await context.close();
  await owner.context.close();
});
