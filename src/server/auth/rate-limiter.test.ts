import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../test-support.ts';
import { createRateLimiter, PRUNE_EVERY } from './rate-limiter.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const rule = { max: 2, windowSeconds: 60 };

test('a key is allowed max times per window, then told how long to wait', async () => {
  const consume = createRateLimiter(t.database);
  expect((await consume('k', rule)).allowed).toBe(true);
  expect((await consume('k', rule)).allowed).toBe(true);
  const refused = await consume('k', rule);
  expect(refused.allowed).toBe(false);
  expect(refused.retryAfterSeconds).toBeGreaterThan(55);
  expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  expect((await consume('other', rule)).allowed).toBe(true);
});

test('concurrent checks cannot all slip through', async () => {
  const consume = createRateLimiter(t.database);
  const verdicts = await Promise.all(Array.from({ length: 20 }, () => consume('burst', rule)));
  expect(verdicts.filter((v) => v.allowed)).toHaveLength(2);
});

test('an expired window starts again, and day-old rows are pruned', async () => {
  const consume = createRateLimiter(t.database);
  await t.database.db
    .insertInto('rate_limits')
    .values([
      { key: 'stale', count: 99, window_start: Date.now() - 120_000 },
      { key: 'ancient', count: 1, window_start: Date.now() - 2 * 24 * 60 * 60 * 1000 },
    ])
    .execute();
  expect((await consume('stale', rule)).allowed).toBe(true);
  for (let i = 0; i < PRUNE_EVERY; i += 1) {
    await consume(`key-${i}`, { max: 1000, windowSeconds: 60 });
  }
  const keys = await t.database.db.selectFrom('rate_limits').select('key').execute();
  expect(keys.map((k) => k.key)).not.toContain('ancient');
  expect(keys.map((k) => k.key)).toContain('stale');
});
