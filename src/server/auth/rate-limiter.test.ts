import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../test-support.ts';
import {
  addressGroupOf,
  createRateLimiter,
  createSignInGuard,
  PRUNE_EVERY,
  refundRateLimit,
} from './rate-limiter.ts';

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

const signInRules = {
  signInPerIp: { max: 1000, windowSeconds: 600 },
  signInPerIpAndEmail: { max: 5, windowSeconds: 600 },
  signInPerEmail: { max: 10, windowSeconds: 600 },
};

test('concurrent guesses from one address: no more than the pair limit get their password checked', async () => {
  const begin = createSignInGuard(t.database, signInRules);
  const verdicts = await Promise.all(
    Array.from({ length: 20 }, async () => (await begin('192.0.2.1')).forEmail('a@example.com')),
  );
  expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
});

test('concurrent guesses from many addresses: past the ceiling, each address gets one', async () => {
  const begin = createSignInGuard(t.database, signInRules);
  const addresses = Array.from({ length: 30 }, (_, i) => `198.51.100.${i}`);
  const round = () =>
    Promise.all(addresses.map(async (ip) => (await begin(ip)).forEmail('b@example.com')));
  expect((await round()).filter((v) => v.allowed)).toHaveLength(30);
  // 30 failures counted, well past 10: no address that has failed may try again.
  expect((await round()).filter((v) => v.allowed)).toHaveLength(0);
  expect((await (await begin('198.51.100.250')).forEmail('b@example.com')).allowed).toBe(true);
});

test('a refund leaves a window begun since alone', async () => {
  const consume = createRateLimiter(t.database);
  const first = await consume('refund', rule);
  await t.database.db
    .updateTable('rate_limits')
    .set({ window_start: Date.now() - 120_000 })
    .where('key', '=', 'refund')
    .execute();
  // Windows are told apart by their start (ms): the new one must not begin in the same one.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const fresh = await consume('refund', rule);
  expect(fresh.count).toBe(1);
  await refundRateLimit(t.database, 'refund', first.windowStart);
  expect((await consume('refund', rule)).count).toBe(2);
  await refundRateLimit(t.database, 'refund', fresh.windowStart);
  expect((await consume('refund', rule)).count).toBe(2);
});

test('IPv6 addresses count by their /64, IPv4 ones (however written) by the address', () => {
  const group = '2001:db8:0:1::/64';
  for (const ip of [
    '2001:db8:0:1::1',
    '2001:DB8:0:1:ffff:ffff:ffff:ffff',
    '2001:0db8:0000:0001:0:0:0:2',
    '2001:db8::1:0:0:0:3',
    '2001:db8:0:1::5%eth0',
  ]) {
    expect(addressGroupOf(ip), ip).toBe(group);
  }
  expect(addressGroupOf('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
  expect(addressGroupOf('::1')).toBe('0:0:0:0::/64');
  expect(addressGroupOf('1::2:3:4:5:6.7.8.9')).toBe('1:0:2:3::/64');
  expect(addressGroupOf('192.0.2.1')).toBe('192.0.2.1');
  expect(addressGroupOf('::ffff:192.0.2.1')).toBe('192.0.2.1');
});
