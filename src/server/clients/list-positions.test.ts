// Deep pages start from remembered positions along the sort index (decision 0034): a write on
// this instance or another, or the day changing, must never leave one answering a stale page.
// The truth each deep page is held to is the shallow page one place before it, which is read
// by walking the index from its start (no remembered position is used below
// DEFERRED_JOIN_OFFSET): the deep page's clients must be the shallow page's from its second on.
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Client, ClientList } from '../../shared/client-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import {
  addClient,
  importCsv,
  injectCall,
  post,
  setPanelSettings,
  startTestApp,
  startTwoInstances,
  type TestApp,
} from '../test-support.ts';
import { DEFERRED_JOIN_OFFSET } from './clients-read.ts';

/**
 * Work to do right after the next read of an operator's totals: a deep page reads them (and
 * so the list version) first, then its page; a write in between is the race the page's own
 * check of the version closes.
 */
const between = vi.hoisted(() => ({
  totalsAndPage: undefined as (() => Promise<void>) | undefined,
}));
vi.mock('./running-totals.ts', async (load) => {
  const actual = await load<typeof import('./running-totals.ts')>();
  const ownerTotalsQuery: typeof actual.ownerTotalsQuery = async (db, params) => {
    const rows = await actual.ownerTotalsQuery(db, params);
    const work = between.totalsAndPage;
    between.totalsAndPage = undefined;
    await work?.();
    return rows;
  };
  return { ...actual, ownerTotalsQuery };
});

/** Enough clients for a deep page of 60. */
const CLIENTS = DEFERRED_JOIN_OFFSET + 60;

/** Imports CLIENTS clients (few names, so ties) as the administrator of `t`. */
async function importClients(t: TestApp): Promise<void> {
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  const lines = ['First Name,Last Name,Email,Phone,Balance'];
  for (let i = 0; i < CLIENTS; i += 1) {
    lines.push(
      `${['Asha', 'Ravi'][i % 2]},${['Kumar', 'Iyer', 'Das'][i % 3]},c${i}@example.com,${7_000_000_000 + i},${(i % 5) - 2}.50`,
    );
  }
  const imported = await importCsv(t.app, t.admin.cookie, lines);
  expect(imported.statusCode, imported.body).toBe(201);
}

async function list(t: TestApp, query: string, cookie = t.admin.cookie): Promise<ClientList> {
  const response = await injectCall(t.app, 'GET', `${apiPaths.clients}?${query}`, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const ids = (clients: Client[]) => clients.map((client) => client.id);

/**
 * The deep pages of a view at DEFERRED_JOIN_OFFSET and `further` places after it, on `reader`,
 * against the shallow page one place before (read on `truth`, by default the same instance).
 */
async function expectDeepPagesTrue(
  reader: TestApp,
  view: string,
  { truth = reader, cookie = reader.admin.cookie, further = 25 } = {},
) {
  const shallow = await list(truth, `${view}&limit=100&offset=${DEFERRED_JOIN_OFFSET - 1}`, cookie);
  for (const distance of [0, further]) {
    const offset = DEFERRED_JOIN_OFFSET + distance;
    const deep = await list(reader, `${view}&limit=20&offset=${offset}`, cookie);
    expect(ids(deep.items), `${view} at ${offset}`).toEqual(
      ids(shallow.items.slice(1 + distance, 21 + distance)),
    );
    expect(deep.items).toEqual(shallow.items.slice(1 + distance, 21 + distance));
    expect({ total: deep.total, totalOwed: deep.totalOwed }).toEqual({
      total: shallow.total,
      totalOwed: shallow.totalOwed,
    });
  }
}

/** The client at a view's position, as the shallow pages read it. */
async function clientAt(t: TestApp, view: string, offset: number): Promise<Client> {
  const [client] = (await list(t, `${view}&limit=1&offset=${offset}`)).items;
  if (!client) throw new Error(`no client at ${offset}`);
  return client;
}

describe('a write on this instance, then the deep page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await importClients(t);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const byName = 'sort=lname&dir=asc';
  const byBalance = 'sort=balance&dir=desc';

  test('a client added before the position moves the page on by one', async () => {
    await expectDeepPagesTrue(t, byName);
    const before = await list(t, `${byName}&limit=5&offset=${DEFERRED_JOIN_OFFSET}`);
    await addClient(t.app, t.admin.cookie, { lname: 'Aaronson', email: 'first@example.com' });
    const after = await list(t, `${byName}&limit=5&offset=${DEFERRED_JOIN_OFFSET}`);
    expect(ids(after.items).slice(1)).toEqual(ids(before.items).slice(0, 4));
    await expectDeepPagesTrue(t, byName);
  });

  test('a client renamed from before the position to after it moves the page back by one', async () => {
    await expectDeepPagesTrue(t, byName);
    const early = await clientAt(t, byName, 10);
    const renamed = await injectCall(t.app, 'PATCH', apiPaths.client(early.id), t.admin.cookie, {
      version: early.version,
      lname: 'Zweig',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await expectDeepPagesTrue(t, byName);
  });

  test('a client deleted before the position, then restored', async () => {
    await expectDeepPagesTrue(t, byName);
    const early = await clientAt(t, byName, 3);
    const deleted = await injectCall(t.app, 'DELETE', apiPaths.client(early.id), t.admin.cookie);
    expect(deleted.statusCode, deleted.body).toBe(204);
    await expectDeepPagesTrue(t, byName);
    const restored = await post(t.app, apiPaths.restore(early.id), t.admin.cookie);
    expect(restored.statusCode, restored.body).toBe(200);
    await expectDeepPagesTrue(t, byName);
  });

  test('a write between the read of the version and the page: the page is read afresh', async () => {
    await expectDeepPagesTrue(t, byName);
    const before = await list(t, `${byName}&limit=5&offset=${DEFERRED_JOIN_OFFSET}`);
    between.totalsAndPage = async () => {
      await addClient(t.app, t.admin.cookie, { lname: 'Abbott', email: 'between@example.com' });
    };
    const after = await list(t, `${byName}&limit=5&offset=${DEFERRED_JOIN_OFFSET}`);
    expect(between.totalsAndPage).toBeUndefined();
    expect(ids(after.items).slice(1)).toEqual(ids(before.items).slice(0, 4));
    await expectDeepPagesTrue(t, byName);
  });

  test('a charge that moves a client across the position in the balance order', async () => {
    await expectDeepPagesTrue(t, byBalance);
    await expectDeepPagesTrue(t, `${byBalance}&balance=owing`, { further: 5 });
    const last = await clientAt(t, byBalance, CLIENTS - 1);
    const charged = await post(t.app, apiPaths.entries(last.id), t.admin.cookie, {
      kind: 'charge',
      amount: '100000.00',
    });
    expect(charged.statusCode, charged.body).toBe(201);
    await expectDeepPagesTrue(t, byBalance);
    await expectDeepPagesTrue(t, `${byBalance}&balance=owing`, { further: 5 });
  });
});

describe('a write on another instance, then the deep page', () => {
  let instances: Awaited<ReturnType<typeof startTwoInstances>>;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    instances = await startTwoInstances();
    ({ a, b } = instances);
    await importClients(a);
  }, 60_000);
  afterAll(async () => {
    await instances?.close();
  });

  test("a client another instance adds is on this instance's deep page at once", async () => {
    const byName = 'sort=lname&dir=asc';
    const cookie = a.admin.cookie;
    await expectDeepPagesTrue(a, byName);
    const before = await list(a, `${byName}&limit=5&offset=${DEFERRED_JOIN_OFFSET}`);
    // The same operator, signed in with the same cookie, writing through the other instance.
    await addClient(b.app, cookie, { lname: 'Aaronson', email: 'elsewhere@example.com' });
    const after = await list(a, `${byName}&limit=5&offset=${DEFERRED_JOIN_OFFSET}`);
    expect(ids(after.items).slice(1)).toEqual(ids(before.items).slice(0, 4));
    await expectDeepPagesTrue(a, byName, { truth: b, cookie });
  });

  test("a client another instance deletes is off this instance's deep page at once", async () => {
    const byEmail = 'sort=email&dir=desc';
    const cookie = a.admin.cookie;
    await expectDeepPagesTrue(a, byEmail);
    const [early] = (await list(b, `${byEmail}&limit=1&offset=2`, cookie)).items;
    const deleted = await injectCall(b.app, 'DELETE', apiPaths.client(early?.id ?? ''), cookie);
    expect(deleted.statusCode, deleted.body).toBe(204);
    await expectDeepPagesTrue(a, byEmail, { truth: b, cookie });
  });
});

describe('the day changing, then the deep page', () => {
  let t: TestApp;
  /** The next midnight in India (the test panel's time zone), in ms. */
  const istOffset = 5.5 * 3_600_000;
  const midnight = Math.ceil((Date.now() + istOffset) / 86_400_000) * 86_400_000 - istOffset;

  beforeAll(async () => {
    // The clock stands a minute before the panel's midnight until the test moves it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(midnight - 60_000);
    t = await startTestApp();
    await importClients(t);
  }, 60_000);
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => {
    await t.close();
  });

  test("a deep page's clients are overdue from the panel's next day, with no write", async () => {
    const view = 'sort=lname&dir=asc';
    const today = (await injectCall(t.app, 'GET', apiPaths.totals, t.admin.cookie)).json().today;
    const client = await clientAt(t, view, DEFERRED_JOIN_OFFSET + 2);
    const charged = await post(t.app, apiPaths.entries(client.id), t.admin.cookie, {
      kind: 'charge',
      amount: '900.00',
      dueOn: today,
    });
    expect(charged.statusCode, charged.body).toBe(201);
    const page = async () =>
      (await list(t, `${view}&limit=5&offset=${DEFERRED_JOIN_OFFSET}`)).items;
    expect((await page())[2]).toMatchObject({ id: client.id, overdue: '0.00', overdueSince: null });
    // Read again from the position the first read remembered: still today.
    expect((await page())[2]).toMatchObject({ id: client.id, overdue: '0.00' });
    vi.setSystemTime(midnight + 60_000);
    const tomorrow = await page();
    expect(tomorrow[2]).toMatchObject({ id: client.id, overdueSince: today });
    expect(Number(tomorrow[2]?.overdue)).toBeGreaterThanOrEqual(900);
    await expectDeepPagesTrue(t, view);
  });
});
