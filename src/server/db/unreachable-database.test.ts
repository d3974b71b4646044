import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '../../shared/client-schema.ts';
import type { EntriesPage } from '../../shared/ledger-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { startTestProxy, type TestProxy } from '../test-proxy.ts';
import {
  clientFields,
  createScratchDatabase,
  GOOD_PASSWORD,
  type HttpAnswer,
  httpCall,
  type ListeningTestApp,
  openLiveTab,
  type ScratchDatabase,
  setPanelSettings,
  signUp,
  startListeningTestApp,
  testDialect,
} from '../test-support.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from './availability.ts';
import { REQUEST_DATABASE_BUDGET_MS, runWithin } from './deadline.ts';

// The limits, asserted as they are: the requirement, not a margin.
const INTERACTIVE_LIMIT_MS = 5_000;
const HEALTH_LIMIT_MS = 2_000;

function expectUnavailable(answer: HttpAnswer, what: string): void {
  expect(answer.status, what).toBe(503);
  expect(answer.json, what).toEqual({
    message: DATABASE_UNAVAILABLE_MESSAGE,
    code: 'database-unavailable',
  });
  expect(answer.headers.get('retry-after'), what).toBe('5');
  expect(answer.ms, what).toBeLessThan(INTERACTIVE_LIMIT_MS);
}

function expectHealthUnavailable(answer: HttpAnswer): void {
  expect(answer.status).toBe(503);
  expect(answer.json).toEqual({ status: 'unavailable', db: 'postgres' });
  expect(answer.ms).toBeLessThan(HEALTH_LIMIT_MS);
}

const portOf = (app: ListeningTestApp) => (app.app.server.address() as AddressInfo).port;

/** Whether `check` holds within `ms`, polled. */
async function holdsWithin(check: () => boolean, ms: number): Promise<boolean> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** Polls `path` until it answers 200 (packets flow again); how long that took, in ms. */
async function recovered(app: ListeningTestApp, path: string, cookie?: string): Promise<number> {
  const started = Date.now();
  for (;;) {
    const answer = await httpCall(portOf(app), 'GET', path, cookie);
    if (answer.status === 200) return Date.now() - started;
    if (Date.now() - started > 20_000) throw new Error(`${path} still answers ${answer.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.runIf(testDialect() === 'postgres')('when PostgreSQL stops answering', () => {
  let scratch: ScratchDatabase;
  let proxy: TestProxy;
  let app: ListeningTestApp;
  const call = (method: string, path: string, cookie?: string, body?: unknown) =>
    httpCall(portOf(app), method, path, cookie, body);

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    const { hostname, port: databasePort } = new URL(scratch.url);
    proxy = await startTestProxy({ host: hostname, port: Number(databasePort) || 5432 });
    app = await startListeningTestApp({
      database: { kind: 'postgres', url: proxy.url(scratch.url), poolSize: 4 },
    });
    // Balances may be given on add: a cut-off write then has an opening entry to check.
    await setPanelSettings(app, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  });
  afterEach(async () => {
    proxy.forward();
    await recovered(app, '/api/health');
  });
  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  test('every call answers 503 within 5 s and health within 2 s, with every pooled connection stuck; once packets flow the same calls work, without a restart', async () => {
    const alice = await signUp(app.app);
    expect(
      (await call('POST', '/api/clients', alice.cookie, clientFields({ fname: 'Before' }))).status,
    ).toBe(201);

    proxy.swallow();
    // Ten calls at once on a pool of four: some wait on connections that never answer,
    // the rest for a connection at all.
    const [health, signIn, ...answers] = await Promise.all([
      call('GET', '/api/health'),
      call('POST', '/api/auth/sign-in/email', undefined, {
        email: alice.email,
        password: GOOD_PASSWORD,
      }),
      ...Array.from({ length: 4 }, () => call('GET', '/api/clients', alice.cookie)),
      call('POST', '/api/clients', alice.cookie, clientFields({ fname: 'Down' })),
      call('PATCH', `/api/clients/${randomUUID()}`, alice.cookie, { version: 1, fname: 'X' }),
      call('GET', '/api/settings'),
      call('GET', '/api/auth/get-session', alice.cookie),
    ]);
    expectHealthUnavailable(health);
    expectUnavailable(signIn, 'sign-in');
    for (const answer of answers) expectUnavailable(answer, 'a call while packets are swallowed');
    // Later calls find the pool's connections closed or still connecting: the same answer.
    expectUnavailable(await call('GET', '/api/clients', alice.cookie), 'a later list');
    expectHealthUnavailable(await call('GET', '/api/health'));

    proxy.forward();
    await recovered(app, '/api/clients', alice.cookie);
    const created = await call(
      'POST',
      '/api/clients',
      alice.cookie,
      clientFields({ fname: 'After' }),
    );
    expect(created.status).toBe(201);
    const list = (await call('GET', '/api/clients', alice.cookie)).json as { items: Client[] };
    expect(list.items.map((client) => client.fname).sort()).toEqual(['After', 'Before']);
    expect((await call('GET', '/api/health')).status).toBe(200);
  }, 60_000);

  test('a request whose queries each answer, but together outlast the deadline, answers 503 within 5 s', async () => {
    const alice = await signUp(app.app);
    // A round trip takes 3 s: the session read and the page each answer within the
    // deadline, one after the other they would not.
    proxy.slow(1_500);
    expectUnavailable(await call('GET', '/api/clients', alice.cookie), 'a list on a slow link');
  }, 30_000);

  // Swallowing begins once the statement has gone out: the database does it, and the app
  // never hears back. The transaction is then open (an INSERT) or committed (the COMMIT).
  test.each([
    { cut: 'after its first statement', trigger: 'insert into "clients"', stored: false },
    { cut: 'after its commit went out', trigger: 'commit', stored: true },
  ])(
    'a write cut off $cut answers 503 within 5 s and is stored whole or not at all',
    async ({ trigger, stored }) => {
      const owner = await signUp(app.app);
      proxy.swallowAfter(trigger);
      const answer = await call(
        'POST',
        '/api/clients',
        owner.cookie,
        clientFields({ fname: 'Cut', balance: '12.34' }),
      );
      expectUnavailable(answer, 'the cut-off write');

      proxy.forward();
      await recovered(app, '/api/clients', owner.cookie);
      const list = (await call('GET', '/api/clients', owner.cookie)).json as {
        items: Client[];
        total: number;
        totalOwed: string;
      };
      if (stored) {
        // Whole: the client, its opening entry and the operator's running total.
        expect(list.items.map((client) => [client.fname, client.balance])).toEqual([
          ['Cut', '12.34'],
        ]);
        expect(list).toMatchObject({ total: 1, totalOwed: '12.34' });
        const id = list.items[0]?.id ?? '';
        const entries = (await call('GET', `/api/clients/${id}/entries`, owner.cookie))
          .json as EntriesPage;
        expect(entries.items.map((entry) => [entry.kind, entry.amount])).toEqual([
          ['opening', '12.34'],
        ]);
      } else {
        expect(list).toEqual({ items: [], total: 0, totalOwed: formatAmount(0n) });
      }
      // The operator's totals row is not left locked by the abandoned transaction.
      const again = await call(
        'POST',
        '/api/clients',
        owner.cookie,
        clientFields({ fname: 'Again', balance: '1' }),
      );
      expect(again.status).toBe(201);
    },
    60_000,
  );

  test('a transaction that PostgreSQL never hears closed is ended by PostgreSQL itself, freeing what it locked', async () => {
    const owner = await signUp(app.app);
    expect(
      (
        await call(
          'POST',
          '/api/clients',
          owner.cookie,
          clientFields({ fname: 'First', balance: '1' }),
        )
      ).status,
    ).toBe(201);
    // Cut once the operator's running total is updated: that row stays locked meanwhile.
    proxy.swallowAfter('insert into "owner_totals"');
    expectUnavailable(
      await call(
        'POST',
        '/api/clients',
        owner.cookie,
        clientFields({ fname: 'Cut', balance: '5' }),
      ),
      'the cut-off write',
    );
    proxy.forward({ closesLost: true });
    // The operator's next write waits for that lock until PostgreSQL ends the abandoned
    // transaction (ABANDONED_TRANSACTION_MS); until then it answers 503, never a hang.
    const started = Date.now();
    let written: HttpAnswer | undefined;
    while (!written && Date.now() - started < 30_000) {
      const answer = await call(
        'POST',
        '/api/clients',
        owner.cookie,
        clientFields({ fname: 'After', balance: '2' }),
      );
      if (answer.status === 201) written = answer;
      else expectUnavailable(answer, 'a write while the lock is held');
    }
    expect(written?.status).toBe(201);
    const list = (await call('GET', '/api/clients', owner.cookie)).json as {
      items: Client[];
      totalOwed: string;
    };
    expect(list.items.map((client) => client.fname).sort()).toEqual(['After', 'First']);
    expect(list.totalOwed).toBe('3.00');
  }, 60_000);

  test('a statement still running at the deadline is cut: its transaction rolls back and its connection is closed, not pooled', async () => {
    await sql`CREATE TABLE IF NOT EXISTS deadline_probe (note text)`.execute(app.database.db);
    let backend: number | undefined;
    const started = Date.now();
    await expect(
      runWithin(500, () =>
        app.database.write(async (trx) => {
          const pid = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx);
          backend = pid.rows[0]?.pid;
          await sql`INSERT INTO deadline_probe (note) VALUES ('half')`.execute(trx);
          await sql`SELECT pg_sleep(3)`.execute(trx);
        }),
      ),
    ).rejects.toThrow(/did not answer in time \(no answer to a query in \d+ ms\)/);
    expect(Date.now() - started).toBeLessThan(1_500);
    // The backend ends once its sleep does and it finds its connection closed; a connection
    // returned to the pool would have stayed.
    const gone = async () =>
      (
        await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE pid = ${backend}`.execute(app.database.db)
      ).rows[0]?.n === 0;
    await expect.poll(gone, { timeout: 10_000, interval: 200 }).toBe(true);
    const rows = await sql`SELECT note FROM deadline_probe`.execute(app.database.db);
    expect(rows.rows).toEqual([]);
  }, 30_000);

  test('an import and an export over a slow but live link keep the long limit, not the request deadline nor the idle timeout', async () => {
    // An instance whose connections may stay silent 2 s (not 10): the import outlasts that.
    const patient = await startListeningTestApp({
      database: app.config.database,
      http: { ...app.config.http, idleTimeoutMs: 2_000 },
    });
    const post = (body: string) =>
      httpCall(portOf(patient), 'POST', '/api/clients/import', patient.admin.cookie, body);
    const csv = (from: number, count: number) =>
      [
        'First Name,Last Name,Email,Phone,Balance',
        ...Array.from({ length: count }, (_, i) => {
          const n = from + i;
          return `Slow${n},Link,slow${n}@example.com,98${String(n).padStart(8, '0')},0`;
        }),
      ].join('\n');
    try {
      expect((await post(csv(0, 4_000))).json).toEqual({ created: 4_000, skipped: 0 });
      // Each way 400 ms: a round trip takes 0.8 s, and the import's statements (about
      // eight) and the export's (a session read and five pages) outlast the request deadline.
      proxy.slow(400);
      const imported = await post(csv(4_000, 500));
      expect(imported.status, imported.text).toBe(201);
      expect(imported.json).toEqual({ created: 500, skipped: 0 });
      expect(imported.ms).toBeGreaterThan(REQUEST_DATABASE_BUDGET_MS);

      const exported = await httpCall(
        portOf(patient),
        'GET',
        '/api/clients/export',
        patient.admin.cookie,
      );
      expect(exported.status).toBe(200);
      expect(exported.text.trim().split(/\r?\n/)).toHaveLength(4_501);
      expect(exported.ms).toBeGreaterThan(REQUEST_DATABASE_BUDGET_MS);
    } finally {
      proxy.forward();
      await patient.close();
    }
  }, 90_000);
});

describe.runIf(testDialect() === 'postgres')('two instances behind one silent link', () => {
  let scratch: ScratchDatabase;
  let proxy: TestProxy;
  let instances: ListeningTestApp[];

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    const { hostname, port } = new URL(scratch.url);
    proxy = await startTestProxy({ host: hostname, port: Number(port) || 5432 });
    const database = { kind: 'postgres' as const, url: proxy.url(scratch.url), poolSize: 4 };
    instances = [];
    // One after the other: the second finds the schema the first made.
    instances.push(await startListeningTestApp({ database }));
    instances.push(await startListeningTestApp({ database }));
  });
  afterAll(async () => {
    proxy?.forward();
    for (const instance of instances ?? []) await instance.close();
    await proxy?.close();
    await scratch?.drop();
  });

  test('each answers 503 within 5 s and health within 2 s, then both serve again, live events across them included', async () => {
    const [a, b] = instances as [ListeningTestApp, ListeningTestApp];
    const alice = await signUp(a.app);
    const tab = await openLiveTab(b.liveUrl, alice.cookie);

    proxy.swallow();
    const answers = await Promise.all(
      [a, b].flatMap((app) => [
        httpCall(portOf(app), 'GET', '/api/clients', alice.cookie),
        httpCall(
          portOf(app),
          'POST',
          '/api/clients',
          alice.cookie,
          clientFields({ fname: 'Down' }),
        ),
      ]),
    );
    for (const answer of answers) expectUnavailable(answer, 'a call on either instance');
    for (const app of [a, b])
      expectHealthUnavailable(await httpCall(portOf(app), 'GET', '/api/health'));

    proxy.forward();
    for (const app of [a, b]) await recovered(app, '/api/clients', alice.cookie);
    // A change on A reaches Alice's tab on B again once B listens again (it may first be
    // told to resync, having lost its listening connection).
    const until = Date.now() + 20_000;
    let delivered = false;
    for (let i = 0; !delivered && Date.now() < until; i += 1) {
      const created = await httpCall(
        portOf(a),
        'POST',
        '/api/clients',
        alice.cookie,
        clientFields({ fname: `Back${i}` }),
      );
      expect(created.status).toBe(201);
      const { id } = created.json as Client;
      delivered = await holdsWithin(
        () => tab.events.some((event) => event.type === 'client.created' && event.client.id === id),
        1_000,
      );
    }
    expect(delivered).toBe(true);
    const onB = (await httpCall(portOf(b), 'GET', '/api/clients', alice.cookie)).json as {
      items: Client[];
    };
    expect(onB.items.some((client) => client.fname === 'Down')).toBe(false);
  }, 90_000);
});
