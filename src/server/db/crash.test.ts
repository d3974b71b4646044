import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type CrashFigures,
  describeFigures,
  inspect,
  postgresCrasher,
  runCrashCycles,
} from '../../../scripts/crash-harness.ts';
import { inCi } from '../../../scripts/in-ci.mjs';
import { clusterToolsMissing, createTestCluster } from '../test-cluster.ts';
import { createScratchDatabase, testDialect } from '../test-support.ts';

// The short version of `npm run crash` (50 cycles each, with figures): the real server
// SIGKILLed in the middle of bursts of concurrent writes, and on PostgreSQL the database
// itself crashed under it, on the dialect of this run.

const seed = Math.floor(Math.random() * 1e9);

function expectNothingLost(figures: CrashFigures): void {
  console.log(describeFigures(figures));
  expect(figures.problems).toEqual([]);
  expect(figures.lost).toBe(0);
  expect(figures.half).toBe(0);
  // The bursts wrote, and the faults cut writes in flight: otherwise nothing was tested.
  const acknowledged = Object.values(figures.acknowledged).reduce((a, b) => a + b, 0);
  expect(acknowledged).toBeGreaterThan(20);
  expect(figures.unanswered).toBeGreaterThan(0);
}

describe.skipIf(testDialect() !== 'sqlite')('on SQLite', () => {
  let file = '';
  let ownerId = '';
  beforeAll(() => {
    file = path.join(mkdtempSync(path.join(tmpdir(), 'client-panel-crash-')), 'panel.db');
  });
  afterAll(() => rmSync(path.dirname(file), { recursive: true, force: true }));

  test('SIGKILLed mid-burst 3 times: every acknowledged write is there, nothing half there, integrity ok', async () => {
    const figures = await runCrashCycles({
      dialect: 'sqlite',
      databaseUrl: file,
      cycles: 3,
      seed,
      importRows: 50,
      onStarted: (run) => {
        ownerId = run.ownerId;
      },
    });
    expectNothingLost(figures);
  }, 90_000);

  test('the check finds a balance without its entry, totals that do not add up, and a corrupt file', async () => {
    expect((await inspect('sqlite', file, ownerId)).problems).toEqual([]);
    const db = new SqliteDatabase(file);
    db.exec('DELETE FROM ledger_entries WHERE seq = (SELECT MAX(seq) FROM ledger_entries)');
    db.exec('UPDATE owner_totals SET client_count = client_count + 1');
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    // The clients table's root page: a page in the middle of the file may be a free one,
    // which integrity_check does not read.
    const { rootpage } = db
      .prepare("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = 'clients'")
      .get() as { rootpage: number };
    db.close();
    const problems = (await inspect('sqlite', file, ownerId)).problems.join('\n');
    expect(problems).toMatch(/entries sum to/);
    expect(problems).toMatch(/running totals: count/);

    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xab), 0, pageSize, pageSize * (rootpage - 1));
    closeSync(fd);
    expect((await inspect('sqlite', file, ownerId)).problems.join('\n')).toMatch(
      /integrity_check|cannot be read/,
    );
  });
});

describe.skipIf(testDialect() !== 'postgres')('on PostgreSQL', () => {
  const missing = clusterToolsMissing();
  if (missing) {
    if (inCi) throw new Error(`The PostgreSQL crash test cannot run under CI: ${missing}`);
    console.warn(`Skipping the crash of PostgreSQL itself: ${missing}`);
  }

  test.skipIf(missing !== null)(
    'server SIGKILLed mid-burst twice, then PostgreSQL itself crashed mid-burst: nothing acknowledged lost, nothing half there, the server recovers by itself',
    async () => {
      // A cluster of its own: the shared one serves the other test files meanwhile.
      const cluster = createTestCluster();
      try {
        const scratch = await createScratchDatabase(cluster.url());
        const figures = await runCrashCycles({
          dialect: 'postgres',
          databaseUrl: scratch.url,
          cycles: 3,
          fault: (cycle) => (cycle === 2 ? 'crash-postgres' : 'kill-server'),
          crashPostgres: await postgresCrasher(cluster.url(), () => cluster.start()),
          seed,
          importRows: 50,
        });
        expectNothingLost(figures);
        expect(figures.faults).toEqual({ 'kill-server': 2, 'crash-postgres': 1 });
      } finally {
        cluster.drop();
      }
    },
    90_000,
  );

  test.skipIf(missing === null)(
    'server SIGKILLed mid-burst twice (shared server): nothing acknowledged lost, nothing half there',
    async () => {
      const scratch = await createScratchDatabase();
      try {
        expectNothingLost(
          await runCrashCycles({
            dialect: 'postgres',
            databaseUrl: scratch.url,
            cycles: 2,
            seed,
            importRows: 50,
          }),
        );
      } finally {
        await scratch.drop();
      }
    },
    90_000,
  );
});
