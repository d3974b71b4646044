// Two instances on one PostgreSQL behind nginx (deploy/nginx.conf), as the README describes.
// Outside CI a missing nginx or PostgreSQL skips this file with a reason; under CI=true it fails.
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { inCi } from '../../scripts/in-ci.mjs';
import {
  changeSettingsOnPage,
  expect,
  login,
  newEmail,
  register,
  registerThroughForm,
  test,
} from './fixtures.ts';
import {
  type Cluster,
  clusterUnavailable,
  PAGE_COOKIE,
  PIN_COOKIE,
  startCluster,
  UPSTREAM_HEADER,
} from './nginx-cluster.ts';

let cluster: Cluster | undefined;

function started(): Cluster {
  if (!cluster) throw new Error('the cluster did not start');
  return cluster;
}

interface PinnedPage {
  page: Page;
  /** Its page cookie: whose lines they are in nginx's access log. */
  id: string;
  /** The instance nginx sends it to, as host:port. */
  address: string;
  /** The instance nginx named on each response this page received. */
  upstreams: string[];
  /** Every message its live sockets received. */
  frames: string[];
}

declare global {
  interface Window {
    liveSocketsOpened?: number;
    sameDocument?: boolean;
  }
}

/** A page in a browser context of its own whose requests and live socket nginx sends to one instance. */
async function pinnedPage(browser: Browser, instance: 1 | 2): Promise<PinnedPage> {
  const { url, instances } = started();
  const { address } = instance === 1 ? instances[0] : instances[1];
  const context = await browser.newContext({ baseURL: url });
  const id = randomUUID();
  await context.addCookies([
    { name: PIN_COOKIE, value: String(instance), url },
    { name: PAGE_COOKIE, value: id, url },
  ]);
  // Counts live sockets that opened in this document, so the test knows when one is up.
  await context.addInitScript(() => {
    const Native = window.WebSocket;
    window.liveSocketsOpened = 0;
    window.WebSocket = class extends Native {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.addEventListener('open', () => {
          window.liveSocketsOpened = (window.liveSocketsOpened ?? 0) + 1;
        });
      }
    };
  });
  const page = await context.newPage();
  const pinned: PinnedPage = { page, id, address, upstreams: [], frames: [] };
  page.on('response', (response) => {
    if (response.url().startsWith(url)) {
      pinned.upstreams.push(response.headers()[UPSTREAM_HEADER] ?? `none for ${response.url()}`);
    }
  });
  page.on('websocket', (socket) =>
    socket.on('framereceived', (frame) => pinned.frames.push(String(frame.payload))),
  );
  return pinned;
}

/** Waits for the page's live socket, then marks the document: a reload would drop the mark. */
async function markLive(page: Page): Promise<void> {
  await expect.poll(() => page.evaluate(() => window.liveSocketsOpened)).toBe(1);
  await page.evaluate(() => {
    window.sameDocument = true;
  });
}

/** Still the document markLive marked, on its one live socket: every change arrived live. */
async function expectNoReload(page: Page): Promise<void> {
  expect(await page.evaluate(() => [window.sameDocument, window.liveSocketsOpened])).toEqual([
    true,
    1,
  ]);
}

async function addClient(
  page: Page,
  client: { fname: string; lname: string; email: string; phone: string; balance: string },
): Promise<void> {
  await page.getByRole('link', { name: 'New' }).click();
  await expect(page).toHaveURL(/\/client\/add$/);
  await page.getByLabel('First Name').fill(client.fname);
  await page.getByLabel('Last Name').fill(client.lname);
  await page.getByLabel('Email').fill(client.email);
  await page.getByLabel('Phone').fill(client.phone);
  await page.getByLabel('Balance').fill(client.balance);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'Client Added Successfully !!' }),
  ).toBeVisible();
}

const clientRow = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Clients' }).getByRole('row').filter({ hasText: name });

async function expectSeesNothing(other: PinnedPage): Promise<void> {
  await expect(other.page.getByText('No users found')).toBeVisible();
  await expect(other.page.getByTestId('total-owed')).toHaveText('Total Owed : ₹0.00');
  expect(other.frames, "events on another operator's socket").toEqual([]);
}

test.describe('two instances on one PostgreSQL behind nginx', () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(60_000);
    const missing = await clusterUnavailable();
    if (missing) {
      if (inCi) throw new Error(`The scale-out test cannot run under CI: ${missing}`);
      console.warn(`Skipping the scale-out (nginx + PostgreSQL) test: ${missing}`);
      test.skip(true, missing);
      return;
    }
    cluster = await startCluster();

    // The first account on the fresh database is its administrator; it unlocks balances.
    const admin = await pinnedPage(browser, 2);
    await registerThroughForm(admin.page, newEmail('admin'));
    await expect(admin.page.getByRole('navigation').getByText('Administrator')).toBeVisible();
    await changeSettingsOnPage(admin.page, { 'Disable Balance On Add': false });
    await admin.page.context().close();
  });

  test.afterEach(async () => {
    const info = test.info();
    if (cluster && info.status !== info.expectedStatus) {
      await info.attach('instances and nginx', { body: await cluster.report() });
    }
  });

  test.afterAll(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  test('nginx balances round-robin; the pin cookie sends everything to one instance', async () => {
    const { url, instances } = started();
    const answeredBy = async (cookie?: string) => {
      const response = await fetch(`${url.replace('localhost', '127.0.0.1')}/api/health`, {
        headers: cookie ? { cookie } : {},
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok', db: 'postgres' });
      return response.headers.get(UPSTREAM_HEADER);
    };
    const unpinned: (string | null)[] = [];
    for (let i = 0; i < 6; i += 1) unpinned.push(await answeredBy());
    expect(new Set(unpinned)).toEqual(new Set(instances.map((instance) => instance.address)));
    for (const [index, instance] of instances.entries()) {
      for (let i = 0; i < 3; i += 1) {
        expect(await answeredBy(`${PIN_COOKIE}=${index + 1}`)).toBe(instance.address);
      }
    }
  });

  test("an operator's two pages on two instances see each other's changes live; another operator sees none", async ({
    browser,
  }) => {
    const { instances } = started();

    // An operator registers through instance 1...
    const a = await pinnedPage(browser, 1);
    const email = await register(a.page, newEmail('scale-out'));
    await expect(a.page.getByRole('navigation').getByText('Administrator')).toHaveCount(0);
    await expect(a.page.getByText('No users found')).toBeVisible();

    // ...and signs in on instance 2 in another browser context.
    const b = await pinnedPage(browser, 2);
    await login(b.page, email);
    await expect(b.page).toHaveURL(/\/dashboard$/);
    await expect(b.page.getByText('No users found')).toBeVisible();

    // Another operator, on the instance where the events arrive by NOTIFY.
    const other = await pinnedPage(browser, 2);
    await register(other.page, newEmail('other'));
    await expect(other.page.getByText('No users found')).toBeVisible();

    for (const { page } of [a, b, other]) await markLive(page);

    // Added through instance 1, shown live on instance 2.
    await addClient(a.page, {
      fname: 'Meera',
      lname: 'Pillai',
      email: 'meera@example.com',
      phone: '9812345678',
      balance: '250',
    });
    await expect(clientRow(b.page, 'Meera')).toContainText('₹250.00');
    await expect(b.page.getByTestId('total-owed')).toHaveText('Total Owed : ₹250.00');
    await expectSeesNothing(other);

    // Changed through instance 2, shown live on instance 1.
    await clientRow(b.page, 'Meera')
      .getByRole('link', { name: /Details/ })
      .click();
    await expect(b.page.getByRole('heading', { name: 'Meera Pillai' })).toBeVisible();
    await b.page.getByRole('button', { name: 'Edit balance' }).click();
    await b.page.getByLabel('New balance').fill('1234.5');
    await b.page.getByRole('button', { name: 'Update' }).click();
    await expect(b.page.getByRole('status').filter({ hasText: 'Balance Updated' })).toBeVisible();
    await expect(clientRow(a.page, 'Meera')).toContainText('₹1,234.50');
    await expect(a.page.getByTestId('total-owed')).toHaveText('Total Owed : ₹1,234.50');
    await expectSeesNothing(other);

    // Deleted through instance 2, gone live on instance 1.
    await b.page.getByRole('button', { name: 'Delete' }).click();
    await b.page
      .getByRole('dialog', { name: 'Are you sure ?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(b.page).toHaveURL(/\/dashboard$/);
    await expect(b.page.getByRole('status').filter({ hasText: 'Client Removed' })).toBeVisible();
    await expect(clientRow(a.page, 'Meera')).toHaveCount(0);
    await expect(a.page.getByText('No users found')).toBeVisible();
    await expect(a.page.getByTestId('total-owed')).toHaveText('Total Owed : ₹0.00');
    await expectSeesNothing(other);

    // Nothing was reloaded: the changes came over the live sockets.
    for (const { page } of [a, b, other]) await expectNoReload(page);
    const types = (frames: string[]) => frames.map((frame) => JSON.parse(frame).type);
    expect(types(b.frames)).toContain('client.created');
    expect(types(a.frames)).toEqual(
      expect.arrayContaining(['client.created', 'client.updated', 'client.deleted']),
    );

    // Every answer each page received came from the instance it was pinned to.
    expect(a.address).toBe(instances[0].address);
    expect(b.address).toBe(instances[1].address);
    for (const pinned of [a, b, other]) {
      expect(pinned.upstreams.length).toBeGreaterThan(5);
      expect(new Set(pinned.upstreams)).toEqual(new Set([pinned.address]));
    }

    // So did each page's one live socket: nginx logs an upgrade (101) when the socket closes.
    for (const { page } of [a, b, other]) await page.context().close();
    const socketsOf = async ({ id }: PinnedPage) =>
      (await started().accessLog())
        .filter((entry) => entry.page === id && entry.uri === '/api/live')
        .map((entry) => `${entry.status} ${entry.upstream}`);
    for (const pinned of [a, b, other]) {
      await expect.poll(() => socketsOf(pinned)).toEqual([`101 ${pinned.address}`]);
    }

    expect(started().errorLogs(), 'errors logged by the instances').toEqual([]);
  });
});
