import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { type Client, NOT_RESTORABLE_MESSAGE } from '../../shared/client-schema.ts';
import type { Entry } from '../../shared/ledger-schema.ts';
import {
  addClient,
  injectCall,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';

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

async function totalOwed(cookie: string): Promise<string> {
  return (await injectCall(t.app, 'GET', '/api/totals', cookie)).json().totalOwed;
}

async function history(cookie: string, id: string): Promise<Entry[]> {
  return (await injectCall(t.app, 'GET', `/api/clients/${id}/entries`, cookie)).json().items;
}

const restore = (cookie: string, id: string) =>
  injectCall(t.app, 'POST', `/api/clients/${id}/restore`, cookie);

const remove = (cookie: string, id: string) =>
  injectCall(t.app, 'DELETE', `/api/clients/${id}`, cookie);

describe('undo a delete', () => {
  test('a deleted client comes back as it was, with its history and its place in the totals', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, { balance: '100', fname: 'Restorable' });
    await addClient(t.app, cookie, { balance: '5', fname: 'Other' });
    const paid = await injectCall(t.app, 'POST', `/api/clients/${client.id}/entries`, cookie, {
      kind: 'payment',
      amount: '30.50',
      note: 'cash',
    });
    expect(paid.statusCode).toBe(201);
    const before = (await injectCall(t.app, 'GET', `/api/clients/${client.id}`, cookie)).json();
    const entries = await history(cookie, client.id);
    expect(await totalOwed(cookie)).toBe('74.50');

    expect((await remove(cookie, client.id)).statusCode).toBe(204);
    expect((await injectCall(t.app, 'GET', `/api/clients/${client.id}`, cookie)).statusCode).toBe(
      404,
    );
    expect(await totalOwed(cookie)).toBe('5.00');
    // A client created meanwhile must not collide with the one coming back.
    await addClient(t.app, cookie, { balance: '1', fname: 'Newcomer' });

    const restored = await restore(cookie, client.id);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toEqual(before);
    expect(await history(cookie, client.id)).toEqual(entries);
    expect(await totalOwed(cookie)).toBe('75.50');
    const found = await injectCall(t.app, 'GET', '/api/clients?q=restorable', cookie);
    expect(found.json().items.map((c: Client) => c.id)).toEqual([client.id]);
    // Restored once: there is nothing left to restore.
    const again = await restore(cookie, client.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(NOT_RESTORABLE_MESSAGE);
  });

  test('after 10 minutes a deleted client is gone for good', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, { balance: '10' });
    const kept = await addClient(t.app, cookie, { balance: '20' });
    expect((await remove(cookie, client.id)).statusCode).toBe(204);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 9 * 60_000);
    expect((await remove(cookie, kept.id)).statusCode).toBe(204);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect((await restore(cookie, client.id)).statusCode).toBe(404);
    // The later delete is still within its 10 minutes.
    expect((await restore(cookie, kept.id)).statusCode).toBe(200);
    // The next delete removes what can no longer be restored.
    const third = await addClient(t.app, cookie, { balance: '1' });
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
    const client = await addClient(t.app, alice.cookie, { balance: '10' });
    await remove(alice.cookie, client.id);
    expect((await restore(bob.cookie, client.id)).statusCode).toBe(404);
    const bulk = await injectCall(t.app, 'POST', '/api/clients/restore', bob.cookie, {
      ids: [client.id],
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
      await addClient(t.app, alice.cookie, { balance: '1' }),
      await addClient(t.app, alice.cookie, { balance: '2' }),
      await addClient(t.app, alice.cookie, { balance: '3' }),
    ];
    const theirs = await addClient(t.app, bob.cookie, { balance: '4' });
    const ids = [mine[0]?.id, mine[2]?.id, theirs.id, 'not-an-id', mine[0]?.id];
    const deleted = await injectCall(t.app, 'POST', '/api/clients/delete', alice.cookie, { ids });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ deleted: [mine[0]?.id, mine[2]?.id] });
    expect(await totalOwed(alice.cookie)).toBe('2.00');
    expect(
      (await injectCall(t.app, 'GET', `/api/clients/${theirs.id}`, bob.cookie)).statusCode,
    ).toBe(200);

    const restored = await injectCall(t.app, 'POST', '/api/clients/restore', alice.cookie, { ids });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().restored.map((c: Client) => c.id)).toEqual([mine[0]?.id, mine[2]?.id]);
    expect(await totalOwed(alice.cookie)).toBe('6.00');
  });

  test('a bulk request with no ids, too many, or not a list changes nothing', async () => {
    const { cookie } = await signUp(t.app);
    const client = await addClient(t.app, cookie, { balance: '1' });
    for (const payload of [
      { ids: [] },
      { ids: Array.from({ length: 501 }, () => client.id) },
      { ids: client.id },
      {},
    ]) {
      const response = await injectCall(t.app, 'POST', '/api/clients/delete', cookie, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(response.json()).toHaveProperty('message');
    }
    expect((await injectCall(t.app, 'GET', `/api/clients/${client.id}`, cookie)).statusCode).toBe(
      200,
    );
  });
});
