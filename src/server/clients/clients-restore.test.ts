import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { type Client, NOT_RESTORABLE_MESSAGE } from '../../shared/client-schema.ts';
import type { Entry } from '../../shared/ledger-schema.ts';
import { setPanelSettings, signUp, startTestApp, type TestApp } from '../test-support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await t.close();
});

type Call = { method: 'GET' | 'POST' | 'DELETE'; url: string; payload?: object };

async function call(cookie: string, { method, url, payload }: Call) {
  return t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
}

async function add(cookie: string, balance: string, fname = 'Restorable'): Promise<Client> {
  const response = await call(cookie, {
    method: 'POST',
    url: '/api/clients',
    payload: { fname, lname: 'Client', email: 'r@example.com', phone: '9000000000', balance },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function totalOwed(cookie: string): Promise<string> {
  return (await call(cookie, { method: 'GET', url: '/api/totals' })).json().totalOwed;
}

async function history(cookie: string, id: string): Promise<Entry[]> {
  return (await call(cookie, { method: 'GET', url: `/api/clients/${id}/entries` })).json().items;
}

const restore = (cookie: string, id: string) =>
  call(cookie, { method: 'POST', url: `/api/clients/${id}/restore` });

const remove = (cookie: string, id: string) =>
  call(cookie, { method: 'DELETE', url: `/api/clients/${id}` });

describe('undo a delete', () => {
  test('a deleted client comes back as it was, with its history and its place in the totals', async () => {
    const { cookie } = await signUp(t.app);
    const client = await add(cookie, '100');
    await add(cookie, '5', 'Other');
    const paid = await call(cookie, {
      method: 'POST',
      url: `/api/clients/${client.id}/entries`,
      payload: { kind: 'payment', amount: '30.50', note: 'cash' },
    });
    expect(paid.statusCode).toBe(201);
    const before = (await call(cookie, { method: 'GET', url: `/api/clients/${client.id}` })).json();
    const entries = await history(cookie, client.id);
    expect(await totalOwed(cookie)).toBe('74.50');

    expect((await remove(cookie, client.id)).statusCode).toBe(204);
    expect(
      (await call(cookie, { method: 'GET', url: `/api/clients/${client.id}` })).statusCode,
    ).toBe(404);
    expect(await totalOwed(cookie)).toBe('5.00');
    // A client created meanwhile must not collide with the one coming back.
    await add(cookie, '1', 'Newcomer');

    const restored = await restore(cookie, client.id);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual(before);
    expect(await history(cookie, client.id)).toEqual(entries);
    expect(await totalOwed(cookie)).toBe('75.50');
    const found = await call(cookie, { method: 'GET', url: '/api/clients?q=restorable' });
    expect(found.json().items.map((c: Client) => c.id)).toEqual([client.id]);
    // Restored once: there is nothing left to restore.
    const again = await restore(cookie, client.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(NOT_RESTORABLE_MESSAGE);
  });

  test('after 10 minutes a deleted client is gone for good', async () => {
    const { cookie } = await signUp(t.app);
    const client = await add(cookie, '10');
    const kept = await add(cookie, '20');
    expect((await remove(cookie, client.id)).statusCode).toBe(204);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 9 * 60_000);
    expect((await remove(cookie, kept.id)).statusCode).toBe(204);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect((await restore(cookie, client.id)).statusCode).toBe(404);
    // The later delete is still within its 10 minutes.
    expect((await restore(cookie, kept.id)).statusCode).toBe(200);
    // The next delete removes what can no longer be restored.
    const third = await add(cookie, '1');
    expect((await remove(cookie, third.id)).statusCode).toBe(204);
    const left = await t.database.db
      .selectFrom('deleted_clients')
      .select('client_id')
      .where('client_id', 'in', [client.id, third.id])
      .execute();
    expect(left.map((row) => row.client_id)).toEqual([third.id]);
  });

  test("an operator cannot restore another operator's deleted client", async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const client = await add(alice.cookie, '10');
    await remove(alice.cookie, client.id);
    expect((await restore(bob.cookie, client.id)).statusCode).toBe(404);
    const bulk = await call(bob.cookie, {
      method: 'POST',
      url: '/api/clients/restore',
      payload: { ids: [client.id] },
    });
    expect(bulk.json()).toEqual({ restored: [] });
    expect((await restore(alice.cookie, client.id)).statusCode).toBe(200);
  });
});

describe('bulk delete and restore', () => {
  test('picked clients go in one request and come back in one, leaving out what is not theirs', async () => {
    const alice = await signUp(t.app);
    const bob = await signUp(t.app);
    const mine = [
      await add(alice.cookie, '1'),
      await add(alice.cookie, '2'),
      await add(alice.cookie, '3'),
    ];
    const theirs = await add(bob.cookie, '4');
    const ids = [mine[0]?.id, mine[2]?.id, theirs.id, 'not-an-id', mine[0]?.id];
    const deleted = await call(alice.cookie, {
      method: 'POST',
      url: '/api/clients/delete',
      payload: { ids },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ deleted: [mine[0]?.id, mine[2]?.id] });
    expect(await totalOwed(alice.cookie)).toBe('2.00');
    expect(
      (await call(bob.cookie, { method: 'GET', url: `/api/clients/${theirs.id}` })).statusCode,
    ).toBe(200);

    const restored = await call(alice.cookie, {
      method: 'POST',
      url: '/api/clients/restore',
      payload: { ids },
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().restored.map((c: Client) => c.id)).toEqual([mine[0]?.id, mine[2]?.id]);
    expect(await totalOwed(alice.cookie)).toBe('6.00');
  });

  test('a bulk request with no ids, too many, or not a list changes nothing', async () => {
    const { cookie } = await signUp(t.app);
    const client = await add(cookie, '1');
    for (const payload of [
      { ids: [] },
      { ids: Array.from({ length: 501 }, () => client.id) },
      { ids: client.id },
      {},
    ]) {
      const response = await call(cookie, { method: 'POST', url: '/api/clients/delete', payload });
      expect(response.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(response.json()).toHaveProperty('message');
    }
    expect(
      (await call(cookie, { method: 'GET', url: `/api/clients/${client.id}` })).statusCode,
    ).toBe(200);
  });
});
