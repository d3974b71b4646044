import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Client } from '../../shared/client-schema.ts';
import { formatAmount, MAX_BALANCE_PAISE } from '../../shared/money.ts';
import { post, setPanelSettings, signUp, startTestApp, type TestApp } from '../test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: true });
});
afterAll(async () => {
  await t.close();
});

type Filter = 'owing' | 'credit' | 'settled' | undefined;
const FILTERS: Filter[] = [undefined, 'owing', 'credit', 'settled'];

function keeps(filter: Filter, paise: bigint): boolean {
  if (filter === 'owing') return paise > 0n;
  if (filter === 'credit') return paise < 0n;
  if (filter === 'settled') return paise === 0n;
  return true;
}

async function list(cookie: string, query: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/clients?${query.includes('limit=') ? '' : 'limit=500&'}${query}`,
    headers: { cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { items: Client[]; total: number; totalOwed: string };
}

const balance = fc.oneof(
  fc.constant(0n),
  fc.bigInt({ min: 1n, max: MAX_BALANCE_PAISE }),
  fc.bigInt({ min: -MAX_BALANCE_PAISE, max: -1n }),
);
const operation = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), paise: balance }),
  fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), paise: balance }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);

test('each balance filter counts and sums exactly what it keeps, through any creates, sign changes and deletes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 5, maxLength: 25 }), async (operations) => {
      const { cookie } = await signUp(t.app);
      const model = new Map<string, { paise: bigint; version: number }>();
      for (const op of operations) {
        const ids = [...model.keys()];
        if (op.kind === 'create') {
          const response = await post(t.app, '/api/clients', cookie, {
            fname: 'Filter',
            lname: 'Case',
            email: 'f@example.com',
            phone: '9000000000',
            balance: formatAmount(op.paise),
          });
          expect(response.statusCode).toBe(201);
          model.set(response.json().id, { paise: op.paise, version: 1 });
        } else if (ids.length > 0) {
          const id = ids[op.pick % ids.length] ?? '';
          const current = model.get(id);
          if (!current) continue;
          if (op.kind === 'edit') {
            const response = await t.app.inject({
              method: 'PATCH',
              url: `/api/clients/${id}`,
              headers: { cookie },
              payload: { version: current.version, balance: formatAmount(op.paise) },
            });
            expect(response.statusCode).toBe(200);
            model.set(id, { paise: op.paise, version: current.version + 1 });
          } else {
            await t.app.inject({
              method: 'DELETE',
              url: `/api/clients/${id}`,
              headers: { cookie },
            });
            model.delete(id);
          }
        }
      }
      for (const filter of FILTERS) {
        const kept = [...model.entries()].filter(([, c]) => keeps(filter, c.paise));
        const sum = kept.reduce((total, [, c]) => total + c.paise, 0n);
        const param = filter ? `balance=${filter}` : '';
        // Running totals (no search) and a scan of the matches (a search every client matches).
        for (const query of [param, `${param}&q=filter`, `${param}&q=ca`]) {
          const answer = await list(cookie, query);
          expect(answer.total, query).toBe(kept.length);
          expect(answer.totalOwed, query).toBe(formatAmount(sum));
          expect(answer.items.map((c) => c.id).sort(), query).toEqual(
            kept.map(([id]) => id).sort(),
          );
        }
      }
    }),
    { numRuns: 12 },
  );
});

test('the filter combines with sorting and paging', async () => {
  const { cookie } = await signUp(t.app);
  for (const [fname, amount] of [
    ['Aa', '10.00'],
    ['Bb', '-5.00'],
    ['Cc', '0'],
    ['Dd', '20.00'],
    ['Ee', '30.00'],
  ] as const) {
    await post(t.app, '/api/clients', cookie, {
      fname,
      lname: 'Pager',
      email: 'p@example.com',
      phone: '9000000000',
      balance: amount,
    });
  }
  const second = await list(cookie, 'balance=owing&sort=balance&dir=desc&limit=1&offset=1');
  expect(second.items.map((c) => c.fname)).toEqual(['Dd']);
  expect(second.total).toBe(3);
  expect(second.totalOwed).toBe('60.00');
  const bad = await t.app.inject({
    method: 'GET',
    url: '/api/clients?balance=negative',
    headers: { cookie },
  });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().fieldErrors.balance).toBe('balance must be one of owing, credit, settled');
});
