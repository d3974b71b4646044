import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inCi } from '../../../scripts/in-ci.mjs';
import { formatAmount } from '../../shared/money.ts';
import {
  createScratchDatabase,
  post,
  type ScratchDatabase,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';

const baseUrl = process.env.TEST_DATABASE_URL;

if (!baseUrl) {
  if (inCi)
    throw new Error('TEST_DATABASE_URL is not set: the PostgreSQL suite cannot run under CI');
  console.warn(
    'Skipping the PostgreSQL suite: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).',
  );
}

describe.skipIf(!baseUrl)('on PostgreSQL', () => {
  let t: TestApp;
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    scratch = await createScratchDatabase(baseUrl);
    t = await startTestApp({ database: { kind: 'postgres', url: scratch.url, poolSize: 5 } });
  });
  afterAll(async () => {
    await t?.close();
    await scratch?.drop();
  });

  test('health reports postgres', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.json()).toEqual({ status: 'ok', db: 'postgres' });
  });

  test('an instance with a pool of one connection starts and serves', async () => {
    const small = await startTestApp({
      database: { kind: 'postgres', url: scratch.url, poolSize: 1 },
    });
    try {
      const health = await small.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      await small.app.close();
      await small.database.close();
    }
  });

  test('migrations are safe to run twice', async () => {
    const again = await startTestApp({
      database: { kind: 'postgres', url: scratch.url, poolSize: 2 },
    });
    await again.app.close();
    await again.database.close();
  });

  test('sign-up, sign-in, duplicate e-mail and same 401 behave as on SQLite', async () => {
    const { email } = await signUp(t.app);
    const dup = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email, password: 'another good passphrase' },
    });
    expect(dup.statusCode).toBe(422);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password: 'wrong wrong wrong' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('Invalid email or password');
  });

  test('settings, clients, exact totals beyond 2^53, 409 and isolation', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: true });
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const created = await post(t.app, '/api/clients', alice.cookie, {
        fname: `Big${i}`,
        lname: 'Spender',
        email: 'b@example.com',
        phone: '9000000000',
        balance: '9999999999.99',
      });
      expect(created.statusCode).toBe(201);
      ids.push(created.json().id);
    }
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/clients?limit=5',
      headers: { cookie: alice.cookie },
    });
    expect(list.json().total).toBe(12);
    expect(list.json().totalOwed).toBe(formatAmount(999_999_999_999n * 12n));
    const search = await t.app.inject({
      method: 'GET',
      url: '/api/clients?q=BIG1',
      headers: { cookie: alice.cookie },
    });
    expect(search.json().total).toBe(3); // Big1, Big10, Big11
    const first = ids[0] ?? '';
    const ok = await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${first}`,
      headers: { cookie: alice.cookie },
      payload: { version: 1, balance: '0' },
    });
    expect(ok.statusCode).toBe(200);
    const stale = await t.app.inject({
      method: 'PATCH',
      url: `/api/clients/${first}`,
      headers: { cookie: alice.cookie },
      payload: { version: 1, balance: '5' },
    });
    expect(stale.statusCode).toBe(409);
    const bobRead = await t.app.inject({
      method: 'GET',
      url: `/api/clients/${first}`,
      headers: { cookie: bob.cookie },
    });
    expect(bobRead.statusCode).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/clients/${ids[1]}`,
      headers: { cookie: alice.cookie },
    });
    expect(del.statusCode).toBe(204);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/clients',
      headers: { cookie: alice.cookie },
    });
    expect(after.json().total).toBe(11);
    expect(after.json().totalOwed).toBe(formatAmount(999_999_999_999n * 10n));
  });

  test('concurrent updates of one version: exactly one wins', async () => {
    const { cookie } = await signUp(t.app);
    const created = await post(t.app, '/api/clients', cookie, {
      fname: 'Race',
      lname: 'Case',
      email: 'r@example.com',
      phone: '9000000000',
      balance: '0',
    });
    const id = created.json().id;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.app.inject({
          method: 'PATCH',
          url: `/api/clients/${id}`,
          headers: { cookie },
          payload: { version: 1, balance: String(i + 1) },
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(7);
    const winner = answers.find((a) => a.statusCode === 200)?.json().balance;
    const list = await t.app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
    expect(list.json().totalOwed).toBe(winner);
  });
});
