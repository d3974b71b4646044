import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addClient, signUp, startTestApp, type TestApp } from '../test-support.ts';
import { RESTORE_WINDOW_MS } from './clients-deletion.ts';
import { startPurgeJob } from './purge-job.ts';

const SHORT_INTERVAL_MS = 20;

/** Long enough for a job at SHORT_INTERVAL_MS to have run many times, even on a busy machine. */
const MANY_ROUNDS_MS = 50 * SHORT_INTERVAL_MS;

async function startWithOperator(purgeIntervalMs?: number) {
  const t = await startTestApp({}, purgeIntervalMs ? { purgeIntervalMs } : {});
  return { t, cookie: (await signUp(t.app)).cookie };
}

/** A client added and deleted through the API: its rows wait in deleted_clients. */
async function deletedClient(t: TestApp, cookie: string): Promise<string> {
  const { id } = await addClient(t.app, cookie, { fname: 'Gone', lname: 'Soon' });
  const removed = await t.app.inject({
    method: 'DELETE',
    url: `/api/clients/${id}`,
    headers: { cookie },
  });
  expect(removed.statusCode).toBe(204);
  return id;
}

/** Moves a delete back past the restore window, as if it had happened 11 minutes ago. */
async function makeExpired(t: TestApp, id: string): Promise<void> {
  const longAgo = new Date(Date.now() - RESTORE_WINDOW_MS - 60_000).toISOString();
  await t.database.write((trx) =>
    trx
      .updateTable('deleted_clients')
      .set({ deleted_at: longAgo })
      .where('client_id', '=', id)
      .execute(),
  );
}

async function isKept(t: TestApp, id: string): Promise<boolean> {
  const row = await t.database.db
    .selectFrom('deleted_clients')
    .select('client_id')
    .where('client_id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the running app', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    ({ t, cookie } = await startWithOperator(SHORT_INTERVAL_MS));
  });
  afterAll(async () => {
    await t.close();
  });

  test('removes deleted clients for good once they can no longer be restored, and only those', async () => {
    const expired = await deletedClient(t, cookie);
    const recent = await deletedClient(t, cookie);
    await makeExpired(t, expired);
    await expect.poll(() => isKept(t, expired), { timeout: 15_000 }).toBe(false);
    await pause(MANY_ROUNDS_MS);
    // Still within its 10 minutes: restorable, so kept.
    expect(await isKept(t, recent)).toBe(true);
    const restored = await t.app.inject({
      method: 'POST',
      url: `/api/clients/${recent}/restore`,
      headers: { cookie },
    });
    expect(restored.statusCode).toBe(200);
  });
});

describe('the purge job', () => {
  // The app's own job runs once a minute: not during this test.
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    ({ t, cookie } = await startWithOperator());
  });
  afterAll(async () => {
    await t.close();
  });

  test('removes nothing once stopped, and expired deletes while it runs', async () => {
    const expired = await deletedClient(t, cookie);
    await makeExpired(t, expired);
    startPurgeJob(t.database, { warn: () => {} }, SHORT_INTERVAL_MS).stop();
    await pause(MANY_ROUNDS_MS);
    expect(await isKept(t, expired)).toBe(true);

    const job = startPurgeJob(t.database, { warn: () => {} }, SHORT_INTERVAL_MS);
    try {
      await expect.poll(() => isKept(t, expired), { timeout: 15_000 }).toBe(false);
    } finally {
      job.stop();
    }
  });

  test('a round that fails is reported, and the next round tries again', async () => {
    const warnings: unknown[] = [];
    let failures = 1;
    const database = {
      write: <T>(work: Parameters<typeof t.database.write<T>>[0]) => {
        if (failures > 0) {
          failures -= 1;
          return Promise.reject(new Error('the disk is full'));
        }
        return t.database.write(work);
      },
    };
    const expired = await deletedClient(t, cookie);
    await makeExpired(t, expired);
    const job = startPurgeJob(
      database,
      { warn: (...args: unknown[]) => warnings.push(args) },
      SHORT_INTERVAL_MS,
    );
    try {
      await expect.poll(() => isKept(t, expired), { timeout: 15_000 }).toBe(false);
    } finally {
      job.stop();
    }
    expect(warnings).toHaveLength(1);
  });
});
