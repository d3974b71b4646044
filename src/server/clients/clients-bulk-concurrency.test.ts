import { afterAll, beforeAll, expect, test } from 'vitest';
import { apiPaths } from '../../shared/paths.ts';
import { addClient, type SignedUp, signUp, startTestApp, type TestApp } from '../test-support.ts';

// Found by `npm run fuzz` on PostgreSQL (SQLite has one writer, so it passes there anyway).

let t: TestApp;
let operator: SignedUp;

beforeAll(async () => {
  t = await startTestApp();
  operator = await signUp(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function addClients(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const client = await addClient(t.app, operator.cookie, {
      lname: `Client ${i}`,
      email: `bulk-${i}-${Date.now()}@example.com`,
    });
    ids.push(client.id);
  }
  return ids;
}

function bulk(url: string, ids: string[]) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: operator.cookie },
    payload: { ids },
  });
}

test('bulk deletes and restores of the same clients in opposite orders, at once, all succeed', async () => {
  for (let round = 0; round < 6; round += 1) {
    const ids = await addClients(4);
    const reversed = [...ids].reverse();
    // Each client goes once, whichever request gets it; before, one of the two could
    // deadlock (each holding a client the other wanted, and the totals) and answer 500.
    const deletes = await Promise.all([
      bulk(apiPaths.bulkDelete, ids),
      bulk(apiPaths.bulkDelete, reversed),
      bulk(apiPaths.bulkDelete, ids),
    ]);
    expect(deletes.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(deletes.flatMap((r) => r.json().deleted).sort()).toEqual([...ids].sort());
    const restores = await Promise.all([
      bulk(apiPaths.bulkRestore, ids),
      bulk(apiPaths.bulkRestore, reversed),
      bulk(apiPaths.bulkRestore, ids),
    ]);
    expect(restores.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const restored = restores.flatMap((r) => r.json().restored.map((c: { id: string }) => c.id));
    expect(restored.sort()).toEqual([...ids].sort());
  }
  const totals = await t.app.inject({
    method: 'GET',
    url: apiPaths.totals,
    headers: { cookie: operator.cookie },
  });
  expect(totals.json().clients).toBe(24);
});
