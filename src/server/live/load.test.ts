import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterEach, describe, expect, test } from 'vitest';
import { runLoad } from '../../../bench/load.ts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../test-support.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The app on a port, without the per-address cap: every socket comes from 127.0.0.1. */
async function listening(): Promise<string> {
  t = await startTestApp({ live: { maxSocketsPerAddress: 0 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

const SHORT = { seconds: 2, connections: 16, sockets: 40, operators: 2 };

describe('npm run load, briefly', () => {
  test('mixed reads and writes with live sockets: no error, and stored equals acknowledged', async () => {
    const base = await listening();
    const result = await runLoad({
      base,
      origin: TEST_ORIGIN,
      adminCookie: t?.admin.cookie as string,
      ...SHORT,
    });
    expect(result.errorSamples).toEqual([]);
    expect(result.errors).toBe(0);
    for (const kind of ['list', 'search', 'create', 'payment', 'edit', 'delete'] as const) {
      expect(result.byKind[kind].count, kind).toBeGreaterThan(0);
    }
    expect(result.checks).toHaveLength(2);
    expect(result.checks.every((check) => check.ok)).toBe(true);
    expect(result.live.receivedEvents).toBe(result.live.expectedEvents);
    expect(result.live.expectedEvents).toBeGreaterThan(0);
    expect(result.ok).toBe(true);
  });

  test('a stored count that differs from what was acknowledged is caught by the check', async () => {
    const base = await listening();
    const app = t as TestApp;
    const result = await runLoad({
      base,
      origin: TEST_ORIGIN,
      adminCookie: app.admin.cookie,
      ...SHORT,
      seconds: 1,
      // As if one operator's acknowledged create had not been kept.
      beforeCheck: async () => {
        await sql`UPDATE owner_totals SET client_count = client_count - 1
          WHERE owner_id = (SELECT owner_id FROM owner_totals
            WHERE client_count > 0 ORDER BY owner_id LIMIT 1)`.execute(app.database.db);
      },
    });
    expect(result.errors).toBe(0);
    expect(result.checks.filter((check) => !check.ok)).toHaveLength(1);
    expect(result.ok).toBe(false);
  });
});
