import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiPaths } from '../../shared/paths.ts';
import { lockTotals } from '../clients/running-totals.ts';
import {
  addClient,
  injectCall,
  post,
  signUp,
  startTestApp,
  type TestApp,
  testDialect,
  uniqueEmail,
} from '../test-support.ts';
import { BookWriteGate, writesPerBook } from './book-write-gate.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// SQLite runs one change at a time, and a read waits while one is open on its connection: the
// gate is PostgreSQL's, where each change holds a pooled connection of its own.
describe.skipIf(testDialect() !== 'postgres')("one book's long change (PostgreSQL)", () => {
  test("its other changes wait their turn, and another book's requests are answered meanwhile", async () => {
    const busy = await signUp(t.app, uniqueEmail('busy'));
    const client = await addClient(t.app, busy.cookie, { balance: '0' });
    const other = await signUp(t.app, uniqueEmail('other'));
    await addClient(t.app, other.cookie, { lname: 'Elsewhere' });
    // A change of the busy book that holds its totals row (as a long import does) until told.
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const long = t.database.write(async (trx) => {
      await lockTotals(trx, busy.userId);
      await finished;
    });
    // More changes of that book than the pool has connections for the tests (5).
    const charges = Array.from({ length: 8 }, () =>
      post(t.app, apiPaths.entries(client.id), busy.cookie, { kind: 'charge', amount: '1' }),
    );
    await pause(300);
    // Answered while the long change still runs: a guard well inside the 4 s deadline.
    const list = await Promise.race([
      injectCall(t.app, 'GET', apiPaths.clients, other.cookie),
      pause(3000).then(() => 'still waiting' as const),
    ]);
    finish();
    await long;
    const recorded = await Promise.all(charges);
    expect(list === 'still waiting' ? list : list.statusCode).toBe(200);
    expect(recorded.map((answer) => answer.statusCode)).toEqual(Array(8).fill(201));
    const read = await injectCall(t.app, 'GET', apiPaths.client(client.id), busy.cookie);
    expect(read.json().balance).toBe('8.00');
  });
});

describe('the gate itself', () => {
  test('lets in at most its number of one book at once, the next in order of arrival, and other books freely', async () => {
    const gate = new BookWriteGate(2);
    const order: string[] = [];
    const first = await gate.enter('a', 1000);
    const second = await gate.enter('a', 1000);
    const third = gate.enter('a', 1000).then((leave) => {
      order.push('third');
      return leave;
    });
    const fourth = gate.enter('a', 1000).then((leave) => {
      order.push('fourth');
      return leave;
    });
    (await gate.enter('b', 0))();
    await pause(20);
    expect(order).toEqual([]);
    first();
    first(); // Leaving twice lets in one, not two.
    await pause(20);
    expect(order).toEqual(['third']);
    second();
    (await third)();
    (await fourth)();
    expect(order).toEqual(['third', 'fourth']);
  });

  test('a change that waits past its time is refused as a database that did not answer, and takes no place', async () => {
    const gate = new BookWriteGate(1);
    const holder = await gate.enter('a', 1000);
    await expect(gate.enter('a', 30)).rejects.toMatchObject({
      code: 'CLIENT_PANEL_DATABASE_DEADLINE',
    });
    holder();
    const next = await gate.enter('a', 0);
    next();
  });

  test('two at least, a third of the pool for larger pools', () => {
    expect([1, 5, 10, 30].map(writesPerBook)).toEqual([2, 2, 3, 10]);
  });
});
