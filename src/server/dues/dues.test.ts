import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Client } from '../../shared/client-schema.ts';
import type { Ageing, CollectRound, Promises } from '../../shared/dues-schema.ts';
import { addDays } from '../../shared/ledger-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { apiPaths } from '../../shared/paths.ts';
import {
  addClient,
  injectCall,
  post,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';
import { dropEmptyDueSums, SETTLE_BATCH } from './unpaid-repository.ts';

let t: TestApp;
let today: string;

beforeAll(async () => {
  t = await startTestApp();
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

async function operator(): Promise<string> {
  const { cookie } = await signUp(t.app);
  const totals = await injectCall(t.app, 'GET', apiPaths.totals, cookie);
  today = totals.json().today;
  return cookie;
}

async function entry(
  cookie: string,
  client: { id: string },
  body: { kind: 'charge' | 'payment'; amount: string; on?: string; dueOn?: string },
): Promise<Client> {
  const response = await post(t.app, apiPaths.entries(client.id), cookie, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().client;
}

const charge = (
  cookie: string,
  client: { id: string },
  amount: string,
  on: string,
  dueOn?: string,
) => entry(cookie, client, { kind: 'charge', amount, on, ...(dueOn ? { dueOn } : {}) });
const pay = (cookie: string, client: { id: string }, amount: string, on?: string) =>
  entry(cookie, client, { kind: 'payment', amount, ...(on ? { on } : {}) });

async function read(cookie: string, client: { id: string }): Promise<Client> {
  const response = await injectCall(t.app, 'GET', apiPaths.client(client.id), cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

async function ageing(
  cookie: string,
  app: TestApp['app'] = t.app,
): Promise<Record<string, [string, number]>> {
  const response = await injectCall(app, 'GET', apiPaths.ageing, cookie);
  expect(response.statusCode, response.body).toBe(200);
  const body: Ageing = response.json();
  return Object.fromEntries(body.buckets.map((b) => [b.key, [b.amount, b.clients]]));
}

async function setTerms(cookie: string, paymentTermsDays: number) {
  const current = await injectCall(t.app, 'GET', apiPaths.collectionSettings, cookie);
  const response = await injectCall(t.app, 'PUT', apiPaths.collectionSettings, cookie, {
    ...current.json(),
    paymentTermsDays,
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** The next midnight in the panel's time zone (India, +05:30, no daylight saving). */
function nextMidnightInIndia(): number {
  const istNow = Date.now() + 5.5 * 3_600_000;
  const istMidnight = Math.ceil(istNow / 86_400_000) * 86_400_000;
  return istMidnight - 5.5 * 3_600_000;
}

describe('due dates: payments settle the oldest due first', () => {
  test('a payment settles the oldest due amount; what is left is overdue since its due date', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    await charge(cookie, client, '1000', addDays(today, -40));
    await charge(cookie, client, '500', addDays(today, -10), addDays(today, 5));
    const after = await pay(cookie, client, '700');
    expect(after).toMatchObject({
      balance: '800.00',
      overdue: '300.00',
      overdueSince: addDays(today, -40),
    });
    expect(await read(cookie, client)).toMatchObject({ overdue: '300.00' });
    expect(await ageing(cookie)).toEqual({
      current: ['500.00', 1],
      '1-30': ['0.00', 0],
      '31-60': ['300.00', 1],
      '61-90': ['0.00', 0],
      '90+': ['0.00', 0],
    });
    // Paying the rest of the oldest leaves only what is not yet due.
    expect(await pay(cookie, client, '300')).toMatchObject({ overdue: '0.00', overdueSince: null });
  });

  test('partial payments, and a credit balance that a later charge uses up first', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    await pay(cookie, client, '500');
    await charge(cookie, client, '300', addDays(today, -20));
    expect(await read(cookie, client)).toMatchObject({ balance: '-200.00', overdue: '0.00' });
    const owing = await charge(cookie, client, '450', addDays(today, -15));
    expect(owing).toMatchObject({
      balance: '250.00',
      overdue: '250.00',
      overdueSince: addDays(today, -15),
    });
    await pay(cookie, client, '100');
    await pay(cookie, client, '100');
    expect(await read(cookie, client)).toMatchObject({ overdue: '50.00' });
    expect((await ageing(cookie))['1-30']).toEqual(['50.00', 1]);
  });

  test('a charge due earlier than what is already unpaid is settled first', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    await charge(cookie, client, '100', today, addDays(today, 20));
    await charge(cookie, client, '100', addDays(today, -30));
    expect(await read(cookie, client)).toMatchObject({
      overdue: '100.00',
      overdueSince: addDays(today, -30),
    });
    const paid = await pay(cookie, client, '100');
    expect(paid).toMatchObject({ balance: '100.00', overdue: '0.00', overdueSince: null });
    expect((await ageing(cookie)).current).toEqual(['100.00', 1]);
  });

  test('a payment dated before a charge still settles it when recorded after it', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    await charge(cookie, client, '600', addDays(today, -5));
    const paid = await pay(cookie, client, '600', addDays(today, -9));
    expect(paid).toMatchObject({ balance: '0.00', overdue: '0.00', overdueSince: null });
    expect((await ageing(cookie))['1-30']).toEqual(['0.00', 0]);
  });

  test('a payment settling many unpaid amounts exactly leaves the next one the oldest, counted once', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    // As many as a settle reads at once, then two more: paying exactly the first ones ends
    // the settle on the last row read, and the next is the oldest, with nothing before it.
    for (let i = 0; i < SETTLE_BATCH; i += 1) {
      await charge(cookie, client, '10', addDays(today, -100 - SETTLE_BATCH + i));
    }
    await charge(cookie, client, '40', addDays(today, -100));
    await charge(cookie, client, '50', addDays(today, -95));
    const paid = await pay(cookie, client, formatAmount(BigInt(SETTLE_BATCH) * 1000n));
    expect(paid).toMatchObject({ overdue: '90.00', overdueSince: addDays(today, -100) });
    expect((await ageing(cookie))['90+']).toEqual(['90.00', 1]);
    // Then part of it: the rest of that one stays the oldest.
    expect(await pay(cookie, client, '15')).toMatchObject({
      overdue: '75.00',
      overdueSince: addDays(today, -100),
    });
    expect((await ageing(cookie))['90+']).toEqual(['75.00', 1]);
    expect(await read(cookie, client)).toMatchObject({ overdue: '75.00' });
  });

  test('balance edits: up is due by the payment terms, down settles the oldest', async () => {
    const cookie = await operator();
    await setTerms(cookie, 10);
    const client = await addClient(t.app, cookie, { balance: '0' });
    await charge(cookie, client, '200', addDays(today, -45));
    const raised = await injectCall(t.app, 'PATCH', apiPaths.client(client.id), cookie, {
      version: (await read(cookie, client)).version,
      balance: '1200',
    });
    expect(raised.statusCode, raised.body).toBe(200);
    // The charge was due 10 days after its date (the terms when it was recorded).
    expect(raised.json()).toMatchObject({ overdue: '200.00', overdueSince: addDays(today, -35) });
    const lowered = await injectCall(t.app, 'PATCH', apiPaths.client(client.id), cookie, {
      version: raised.json().version,
      balance: '700',
    });
    expect(lowered.json()).toMatchObject({ balance: '700.00', overdue: '0.00' });
    expect(await ageing(cookie)).toMatchObject({ current: ['700.00', 1], '31-60': ['0.00', 0] });
    const entries = await injectCall(t.app, 'GET', apiPaths.entries(client.id), cookie);
    const adjustments = entries
      .json()
      .items.filter((e: { kind: string }) => e.kind === 'adjustment');
    expect(adjustments.map((e: { dueOn: string | null }) => e.dueOn)).toEqual([
      null,
      addDays(today, 10),
    ]);
  });

  test('an opening balance and a charge without a due date are due by the terms', async () => {
    const cookie = await operator();
    await setTerms(cookie, 15);
    const client = await addClient(t.app, cookie, { balance: '300' });
    const after = await charge(cookie, client, '100', addDays(today, -20));
    expect(after).toMatchObject({ overdue: '100.00', overdueSince: addDays(today, -5) });
    const entries = (await injectCall(t.app, 'GET', apiPaths.entries(client.id), cookie)).json();
    expect(entries.items.map((e: { dueOn: string | null }) => e.dueOn)).toEqual([
      addDays(today, -5),
      addDays(today, 15),
    ]);
  });

  test('deleting a client takes its amounts out of the ageing; restoring puts them back', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    await charge(cookie, client, '400', addDays(today, -70));
    await charge(cookie, client, '100', addDays(today, -3));
    await pay(cookie, client, '150');
    const before = await ageing(cookie);
    expect(before).toMatchObject({ '61-90': ['250.00', 1], '1-30': ['100.00', 1] });
    expect((await injectCall(t.app, 'DELETE', apiPaths.client(client.id), cookie)).statusCode).toBe(
      204,
    );
    expect(await ageing(cookie)).toMatchObject({ '61-90': ['0.00', 0], '1-30': ['0.00', 0] });
    const restored = await post(t.app, apiPaths.restore(client.id), cookie);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({ overdue: '350.00', overdueSince: addDays(today, -70) });
    expect(await ageing(cookie)).toEqual(before);
  });

  test('a due date before the charge, or on a payment, is refused and changes nothing', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    const early = await post(t.app, apiPaths.entries(client.id), cookie, {
      kind: 'charge',
      amount: '10',
      on: today,
      dueOn: addDays(today, -1),
    });
    expect(early.statusCode).toBe(400);
    expect(early.json().fieldErrors.dueOn).toBe("The due date cannot be before the charge's date");
    const onPayment = await post(t.app, apiPaths.entries(client.id), cookie, {
      kind: 'payment',
      amount: '10',
      dueOn: today,
    });
    expect(onPayment.statusCode).toBe(400);
    expect(onPayment.json().fieldErrors.dueOn).toBe('A payment has no due date');
    expect(await read(cookie, client)).toMatchObject({ balance: '0.00', version: client.version });
  });

  test('payment terms are 0 to 365 days, and kept when a save leaves them out', async () => {
    const cookie = await operator();
    await setTerms(cookie, 30);
    const current = (await injectCall(t.app, 'GET', apiPaths.collectionSettings, cookie)).json();
    expect(current.paymentTermsDays).toBe(30);
    const tooLong = await injectCall(t.app, 'PUT', apiPaths.collectionSettings, cookie, {
      ...current,
      paymentTermsDays: 366,
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fieldErrors.paymentTermsDays).toBe(
      'Payment terms must be at most 365 days',
    );
    const { paymentTermsDays: _left, ...withoutTerms } = current;
    const saved = await injectCall(t.app, 'PUT', apiPaths.collectionSettings, cookie, withoutTerms);
    expect(saved.json().paymentTermsDays).toBe(30);
  });
});

describe('the calendar moves the figures with no write', () => {
  test("what is due today is overdue from the panel's next day, at midnight in its time zone", async () => {
    const cookie = await operator();
    const midnight = nextMidnightInIndia();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(midnight - 60_000);
    const day = (await injectCall(t.app, 'GET', apiPaths.totals, cookie)).json().today;
    const client = await addClient(t.app, cookie, { balance: '0' });
    await charge(cookie, client, '900', day);
    expect(await read(cookie, client)).toMatchObject({ overdue: '0.00', overdueSince: null });
    expect((await ageing(cookie)).current).toEqual(['900.00', 1]);
    vi.setSystemTime(midnight + 60_000);
    expect(await read(cookie, client)).toMatchObject({ overdue: '900.00', overdueSince: day });
    expect(await ageing(cookie)).toMatchObject({ current: ['0.00', 0], '1-30': ['900.00', 1] });
    const totals = (await injectCall(t.app, 'GET', apiPaths.totals, cookie)).json();
    expect(totals).toMatchObject({ today: addDays(day, 1), overdue: '900.00' });
    const listed = await injectCall(t.app, 'GET', `${apiPaths.clients}?overdue=1-30`, cookie);
    expect(listed.json().items.map((c: Client) => c.id)).toEqual([client.id]);
  });

  test('a client partly overdue and partly not yet due shows only the overdue part, in lists too', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    await charge(cookie, client, '100', addDays(today, -100));
    await charge(cookie, client, '1000', today, addDays(today, 30));
    expect(await read(cookie, client)).toMatchObject({ overdue: '100.00' });
    for (const query of ['', '?sort=overdue&dir=desc', '?overdue=90%2B', '?q=a']) {
      const listed = await injectCall(t.app, 'GET', `${apiPaths.clients}${query}`, cookie);
      expect(listed.statusCode, listed.body).toBe(200);
      const found = listed.json().items.find((c: Client) => c.id === client.id);
      expect(found, query).toMatchObject({ overdue: '100.00', overdueSince: addDays(today, -100) });
    }
  });
});

describe('the ageing each instance keeps', () => {
  test('a write through another instance of the panel changes the ageing this one answers next', async () => {
    const other = await startTestApp({ database: t.config.database });
    try {
      const cookie = await operator();
      const client = await addClient(t.app, cookie, { balance: '0' });
      await charge(cookie, client, '500', addDays(today, -40));
      // Both instances have answered (and kept) the ageing before the writes below.
      expect((await ageing(cookie))['31-60']).toEqual(['500.00', 1]);
      expect((await ageing(cookie, other.app))['31-60']).toEqual(['500.00', 1]);

      const paid = await post(other.app, apiPaths.entries(client.id), cookie, {
        kind: 'payment',
        amount: '200',
      });
      expect(paid.statusCode, paid.body).toBe(201);
      expect((await ageing(cookie))['31-60']).toEqual(['300.00', 1]);

      await charge(cookie, client, '70', addDays(today, -3));
      expect(await ageing(cookie, other.app)).toMatchObject({
        '1-30': ['70.00', 1],
        '31-60': ['300.00', 1],
      });

      const deleted = await injectCall(other.app, 'DELETE', apiPaths.client(client.id), cookie);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await ageing(cookie)).toMatchObject({ '1-30': ['0.00', 0], '31-60': ['0.00', 0] });
    } finally {
      await other.close();
    }
  });
});

describe('the list: overdue and promise filters, and the overdue order', () => {
  test('filters by days past due of the oldest overdue amount and sorts by the amount overdue', async () => {
    const cookie = await operator();
    const fresh = await addClient(t.app, cookie, { balance: '0', fname: 'Fresh' });
    const month = await addClient(t.app, cookie, { balance: '0', fname: 'Month' });
    const old = await addClient(t.app, cookie, { balance: '0', fname: 'Old' });
    await charge(cookie, fresh, '50', today);
    await charge(cookie, month, '700', addDays(today, -31));
    await charge(cookie, old, '300', addDays(today, -95));
    const ids = async (query: string) =>
      (await injectCall(t.app, 'GET', `${apiPaths.clients}?${query}`, cookie))
        .json()
        .items.map((c: Client) => c.fname);
    expect(await ids('overdue=any&sort=fname')).toEqual(['Month', 'Old']);
    expect(await ids('overdue=1-30')).toEqual([]);
    expect(await ids('overdue=31-60')).toEqual(['Month']);
    expect(await ids('overdue=90%2B')).toEqual(['Old']);
    expect(await ids('sort=overdue&dir=desc')).toEqual(['Month', 'Old', 'Fresh']);
    const list = (await injectCall(t.app, 'GET', `${apiPaths.clients}?overdue=any`, cookie)).json();
    expect(list).toMatchObject({ total: 2, totalOwed: '1000.00' });
    const csv = await injectCall(t.app, 'GET', `${apiPaths.clientsExport}?overdue=31-60`, cookie);
    expect(csv.body.trim().split('\n')).toHaveLength(2);
    const bad = await injectCall(t.app, 'GET', `${apiPaths.clients}?overdue=12`, cookie);
    expect(bad.statusCode).toBe(400);
  });
});

async function promise(cookie: string, client: { id: string }, amount: string, by: string) {
  const response = await post(t.app, apiPaths.promises(client.id), cookie, {
    amount,
    by,
    note: 'said he would pay after the harvest',
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function promises(cookie: string, client: { id: string }): Promise<Promises> {
  const response = await injectCall(t.app, 'GET', apiPaths.promises(client.id), cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('promises to pay', () => {
  test('kept once the payments recorded since, dated by its day, reach its amount', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '5000' });
    const made = await promise(cookie, client, '2000', addDays(today, 3));
    expect(made).toMatchObject({ amount: '2000.00', status: 'open', paid: '0.00' });
    expect(await read(cookie, client)).toMatchObject({
      promise: { id: made.id, amount: '2000.00', by: addDays(today, 3), status: 'open' },
    });
    await pay(cookie, client, '1500');
    expect((await promises(cookie, client)).items[0]).toMatchObject({
      status: 'open',
      paid: '1500.00',
    });
    const after = await pay(cookie, client, '500');
    expect(after.promise).toBeNull();
    expect(await promises(cookie, client)).toMatchObject({
      items: [{ status: 'kept', paid: '2000.00' }],
      kept: 1,
      decided: 1,
    });
  });

  test("broken from the day after its day, at the panel's midnight; a late payment dated by it keeps it", async () => {
    const cookie = await operator();
    const midnight = nextMidnightInIndia();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(midnight - 60_000);
    const day = (await injectCall(t.app, 'GET', apiPaths.totals, cookie)).json().today;
    const client = await addClient(t.app, cookie, { balance: '800' });
    await promise(cookie, client, '800', day);
    expect((await read(cookie, client)).promise?.status).toBe('open');
    vi.setSystemTime(midnight + 60_000);
    expect((await read(cookie, client)).promise?.status).toBe('broken');
    expect((await promises(cookie, client)).items[0]?.status).toBe('broken');
    const brokenList = await injectCall(t.app, 'GET', `${apiPaths.clients}?promise=broken`, cookie);
    expect(brokenList.json().items.map((c: Client) => c.id)).toEqual([client.id]);
    // Paid today: too late.
    await pay(cookie, client, '100');
    expect((await promises(cookie, client)).items[0]).toMatchObject({
      status: 'broken',
      paid: '0.00',
    });
    // The rest, paid yesterday and recorded now: kept.
    await pay(cookie, client, '800', day);
    expect(await promises(cookie, client)).toMatchObject({
      items: [{ status: 'kept' }],
      kept: 1,
      decided: 1,
    });
  });

  test('a new promise replaces an open one; a broken one stays broken in the record', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '900' });
    await promise(cookie, client, '300', addDays(today, 2));
    await promise(cookie, client, '400', addDays(today, 5));
    const record = await promises(cookie, client);
    expect(record.items.map((p) => [p.amount, p.status])).toEqual([
      ['400.00', 'open'],
      ['300.00', 'replaced'],
    ]);
    expect(record).toMatchObject({ kept: 0, decided: 0 });
    const due = await injectCall(t.app, 'GET', `${apiPaths.clients}?promise=due`, cookie);
    expect(due.json().items).toEqual([]);
  });

  test('two promises made at once: one stays open, the other is replaced, as one after the other', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '900' });
    const made = await Promise.all([
      post(t.app, apiPaths.promises(client.id), cookie, { amount: '300', by: addDays(today, 2) }),
      post(t.app, apiPaths.promises(client.id), cookie, { amount: '400', by: addDays(today, 5) }),
    ]);
    expect(made.map((answer) => answer.statusCode)).toEqual([201, 201]);
    const record = await promises(cookie, client);
    expect(record.items.map((p) => p.status).sort()).toEqual(['open', 'replaced']);
    const open = record.items.find((p) => p.status === 'open');
    expect((await read(cookie, client)).promise?.id).toBe(open?.id);
  });

  test("a day in the past, a bad amount, or another operator's client is refused and changes nothing", async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '900' });
    const past = await post(t.app, apiPaths.promises(client.id), cookie, {
      amount: '100',
      by: addDays(today, -1),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().fieldErrors.by).toBe('The promised date must be today or later');
    const zero = await post(t.app, apiPaths.promises(client.id), cookie, {
      amount: '0',
      by: today,
    });
    expect(zero.statusCode).toBe(400);
    const stranger = await operator();
    const theirs = await post(t.app, apiPaths.promises(client.id), stranger, {
      amount: '100',
      by: today,
    });
    expect(theirs.statusCode).toBe(404);
    expect(
      (await injectCall(t.app, 'GET', apiPaths.promises(client.id), stranger)).statusCode,
    ).toBe(404);
    expect((await promises(cookie, client)).items).toEqual([]);
    expect((await read(cookie, client)).promise).toBeNull();
  });
});

async function round(cookie: string, on?: string): Promise<CollectRound> {
  const url = on === undefined ? apiPaths.collect : `${apiPaths.collect}?on=${on}`;
  const response = await injectCall(t.app, 'GET', url, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe("the day's collection round", () => {
  test('who is on it, why, biggest overdue first; who is not', async () => {
    const cookie = await operator();
    const small = await addClient(t.app, cookie, { balance: '0', fname: 'Small' });
    const big = await addClient(t.app, cookie, { balance: '0', fname: 'Big' });
    const promised = await addClient(t.app, cookie, { balance: '400', fname: 'Promised' });
    const reminded = await addClient(t.app, cookie, { balance: '0', fname: 'Reminded' });
    const notDue = await addClient(t.app, cookie, { balance: '0', fname: 'NotDue' });
    await charge(cookie, small, '100', addDays(today, -10));
    await charge(cookie, big, '5000', addDays(today, -3));
    await promise(cookie, promised, '400', today);
    await charge(cookie, reminded, '800', addDays(today, -20));
    const sent = await post(t.app, apiPaths.reminders(reminded.id), cookie, { channel: 'copy' });
    expect(sent.statusCode, sent.body).toBe(201);
    await charge(cookie, notDue, '900', today, addDays(today, 7));
    const day = await round(cookie);
    expect(day.items.map((item) => [item.client.fname, item.reasons, item.overdue])).toEqual([
      ['Big', ['overdue'], '5000.00'],
      ['Small', ['overdue'], '100.00'],
      ['Promised', ['promise-due'], '0.00'],
    ]);
    expect(day.items[2]?.promise).toMatchObject({ amount: '400.00', by: today, status: 'open' });
    // Reminded today while it was on the round: dealt with.
    expect(day).toMatchObject({ on: today, remaining: 3, done: 1 });
  });

  test('a client leaves it when reminded, paid, promised or skipped, and counts as done', async () => {
    const cookie = await operator();
    const names = ['Remind', 'Pay', 'Promise', 'Skip'];
    const clients = [];
    for (const fname of names) {
      const client = await addClient(t.app, cookie, { balance: '0', fname });
      await charge(cookie, client, '100', addDays(today, -5));
      clients.push(client);
    }
    const [toRemind, toPay, toPromise, toSkip] = clients as [Client, Client, Client, Client];
    expect((await round(cookie)).remaining).toBe(4);
    await post(t.app, apiPaths.reminders(toRemind.id), cookie, { channel: 'copy' });
    await pay(cookie, toPay, '10');
    await promise(cookie, toPromise, '100', addDays(today, 2));
    const skipped = await post(t.app, apiPaths.collectSkip(toSkip.id), cookie, {});
    expect(skipped.statusCode, skipped.body).toBe(204);
    expect(await round(cookie)).toMatchObject({ items: [], remaining: 0, done: 4 });
    // Skipping a client not on the round is refused.
    const again = await post(t.app, apiPaths.collectSkip(toSkip.id), cookie, {});
    expect(again.statusCode).toBe(204);
    const settled = await addClient(t.app, cookie, { balance: '0' });
    const notOn = await post(t.app, apiPaths.collectSkip(settled.id), cookie, {});
    expect(notOn.statusCode).toBe(409);
  });

  test('a payment entered today but dated an earlier day (the book written up) leaves the client on the round', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0', fname: 'History' });
    await charge(cookie, client, '1000', addDays(today, -60));
    await pay(cookie, client, '200', addDays(today, -30));
    const day = await round(cookie);
    expect(day.items.map((item) => [item.client.fname, item.overdue])).toEqual([
      ['History', '800.00'],
    ]);
    expect(day).toMatchObject({ remaining: 1, done: 0 });
    // Paid today: dealt with.
    await pay(cookie, client, '100');
    expect(await round(cookie)).toMatchObject({ items: [], remaining: 0, done: 1 });
    // Paid yesterday, all that was overdue, recorded today: dealt with as well.
    const other = await addClient(t.app, cookie, { balance: '0', fname: 'Yesterday' });
    await charge(cookie, other, '300', addDays(today, -20));
    expect(await round(cookie)).toMatchObject({ remaining: 1, done: 1 });
    await pay(cookie, other, '300', addDays(today, -1));
    expect(await round(cookie)).toMatchObject({ items: [], remaining: 0, done: 2 });
  });

  test('on the rounds of the day either side too: a payment deals with its own day, and each later one it leaves clear', async () => {
    const cookie = await operator();
    const yesterday = addDays(today, -1);
    const tomorrow = addDays(today, 1);
    const names = ['PartYesterday', 'PartTomorrow', 'AllYesterday'];
    const clients = [];
    for (const fname of names) {
      const client = await addClient(t.app, cookie, { balance: '0', fname });
      await charge(cookie, client, '500', addDays(today, -20));
      clients.push(client);
    }
    const [partYesterday, partTomorrow, allYesterday] = clients as [Client, Client, Client];
    await pay(cookie, partYesterday, '100', yesterday);
    await pay(cookie, partTomorrow, '100', tomorrow);
    await pay(cookie, allYesterday, '500', yesterday);
    const left = async (on: string) => {
      const day = await round(cookie, on);
      return [day.items.map((item) => item.client.fname).sort(), day.done];
    };
    // Yesterday: both paid on it; today and tomorrow: only the one left with nothing overdue.
    expect(await left(yesterday)).toEqual([['PartTomorrow'], 2]);
    expect(await left(today)).toEqual([['PartTomorrow', 'PartYesterday'], 1]);
    expect(await left(tomorrow)).toEqual([['PartYesterday'], 2]);
    // No round further off than a day either side: asked for, or skipped on, it is refused.
    for (const on of [addDays(today, -2), addDays(today, 2)]) {
      const asked = await injectCall(t.app, 'GET', `${apiPaths.collect}?on=${on}`, cookie);
      expect(asked.statusCode).toBe(400);
      expect(asked.json().fieldErrors).toHaveProperty('on');
      const skip = apiPaths.collectSkip(partTomorrow.id);
      expect((await injectCall(t.app, 'POST', skip, cookie, { on })).statusCode).toBe(400);
    }
  });

  test("a reminder sent today that takes a client off yesterday's round counts there as done, and not on tomorrow's", async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0', fname: 'Elsewhere' });
    await charge(cookie, client, '400', addDays(today, -20));
    const days = [addDays(today, -1), today, addDays(today, 1)];
    for (const on of days) expect(await round(cookie, on)).toMatchObject({ remaining: 1, done: 0 });
    await post(t.app, apiPaths.reminders(client.id), cookie, { channel: 'copy' });
    // A browser still on yesterday sees the client dealt with, as today's does.
    for (const on of days.slice(0, 2)) {
      expect(await round(cookie, on), on).toMatchObject({ items: [], remaining: 0, done: 1 });
    }
    // Reminded within the week before tomorrow: not on its round, and nothing marked there.
    expect(await round(cookie, addDays(today, 1))).toMatchObject({ remaining: 0, done: 0 });
  });

  test('a broken promise brings the client back the next day with that reason', async () => {
    const cookie = await operator();
    const midnight = nextMidnightInIndia();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(midnight - 60_000);
    const client = await addClient(t.app, cookie, { balance: '0', fname: 'Later' });
    const day = (await injectCall(t.app, 'GET', apiPaths.totals, cookie)).json().today;
    await charge(cookie, client, '700', addDays(day, -12));
    await post(t.app, apiPaths.reminders(client.id), cookie, { channel: 'copy' });
    await promise(cookie, client, '700', day);
    expect((await round(cookie)).items).toEqual([]);
    vi.setSystemTime(midnight + 60_000);
    const next = await round(cookie);
    expect(next.items.map((item) => [item.client.fname, item.reasons])).toEqual([
      ['Later', ['promise-broken']],
    ]);
    expect(next.items[0]?.promise?.status).toBe('broken');
  });
});

describe('the ageing as CSV, and the totals', () => {
  test('sums no client has any more count for nothing, and the purge job drops them', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    await charge(cookie, client, '250', addDays(today, -8));
    await pay(cookie, client, '250');
    const empty = () =>
      t.database.db
        .selectFrom('owner_dues as d')
        .innerJoin('clients as c', 'c.owner_id', 'd.owner_id')
        .select('d.due_on')
        .where('c.id', '=', client.id)
        .where('d.clients', '=', 0n as never)
        .execute();
    expect(await empty()).toHaveLength(1);
    expect((await ageing(cookie))['1-30']).toEqual(['0.00', 0]);
    await t.database.write((trx) => dropEmptyDueSums(trx));
    expect(await empty()).toEqual([]);
    expect((await ageing(cookie))['1-30']).toEqual(['0.00', 0]);
  });

  test('one row per client owing anything, most overdue first, by bucket', async () => {
    const cookie = await operator();
    const a = await addClient(t.app, cookie, { balance: '0', fname: 'Asha', lname: 'Rao' });
    const b = await addClient(t.app, cookie, { balance: '0', fname: 'Bala', lname: '=cmd' });
    await addClient(t.app, cookie, { balance: '-50', fname: 'Credit' });
    await charge(cookie, a, '100', addDays(today, -5));
    await charge(cookie, a, '200', today, addDays(today, 3));
    await charge(cookie, b, '300', addDays(today, -100));
    const csv = await injectCall(t.app, 'GET', apiPaths.ageingExport, cookie);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="ageing-${today}.csv"`);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe(
      'First Name,Last Name,Phone,Not yet due,1-30 days,31-60 days,61-90 days,Over 90 days,Total',
    );
    expect(lines.slice(1).map((line) => line.split(',').filter((_, i) => i !== 2))).toEqual([
      ['Bala', "'=cmd", '0.00', '0.00', '0.00', '0.00', '300.00', '300.00'],
      ['Asha', 'Rao', '200.00', '100.00', '0.00', '0.00', '0.00', '300.00'],
    ]);
  });

  test('overdue, and payments dated this month and last month', async () => {
    const cookie = await operator();
    const client = await addClient(t.app, cookie, { balance: '0' });
    await charge(cookie, client, '5000', addDays(today, -70));
    const firstOfMonth = `${today.slice(0, 8)}01`;
    const lastMonth = addDays(firstOfMonth, -1);
    await pay(cookie, client, '1000', lastMonth);
    await pay(cookie, client, '250', firstOfMonth);
    await pay(cookie, client, '250', today);
    const totals = (await injectCall(t.app, 'GET', apiPaths.totals, cookie)).json();
    expect(totals).toMatchObject({
      overdue: '3500.00',
      collectedThisMonth: '500.00',
      collectedLastMonth: '1000.00',
    });
  });
});
