// npm run crash: the crash test at length. On SQLite and on PostgreSQL, CRASH_CYCLES (50)
// times: a burst of concurrent writes (creates, payments and charges, edits, deletes, an
// import) through the real server, SIGKILLed in the middle of it, restarted, and every
// answer checked against the database. Then PostgreSQL itself crashed (immediate shutdown)
// mid-burst CRASH_POSTGRES_CRASHES (3) times, on a throwaway cluster of its own. Prints the
// figures; exits 1 when anything acknowledged was lost or anything is half there.
//
// CRASH_ONLY=sqlite|postgres runs one database; CRASH_SEED repeats a run's choices;
// CRASH_DATABASE_URL (else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
// is the PostgreSQL server on which a scratch database is made and dropped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clusterToolsMissing, createTestCluster } from '../src/server/test-cluster.ts';
import { createScratchDatabase } from '../src/server/test-support.ts';
import {
  type CrashFigures,
  type CrashOptions,
  describeFigures,
  postgresCrasher,
  runCrashCycles,
} from './crash-harness.ts';

const cycles = Number(process.env.CRASH_CYCLES ?? 50);
const postgresCrashes = Number(process.env.CRASH_POSTGRES_CRASHES ?? 3);
const only = process.env.CRASH_ONLY;
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 1e9));
const concurrency = Number(process.env.CRASH_CONCURRENCY ?? 16);
const postgresBase =
  process.env.CRASH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';

// Ctrl-C or a kill: exit through process.exit, so that the harness stops its server.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

const results: CrashFigures[] = [];
const common: Pick<CrashOptions, 'seed' | 'concurrency' | 'importRows' | 'log'> = {
  seed,
  concurrency,
  importRows: 200,
  log: (line) => console.log(`  ${line}`),
};

function report(figures: CrashFigures): void {
  results.push(figures);
  console.log(describeFigures(figures));
}

if (only !== 'postgres') {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-crash-'));
  console.log(`SQLite: ${cycles} cycles, server SIGKILLed mid-burst (${dir})`);
  try {
    report(
      await runCrashCycles({
        ...common,
        dialect: 'sqlite',
        databaseUrl: path.join(dir, 'panel.db'),
        cycles,
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (only !== 'sqlite') {
  console.log(`PostgreSQL: ${cycles} cycles, server SIGKILLed mid-burst`);
  const scratch = await createScratchDatabase(postgresBase, { prefix: 'client_panel_crash' });
  try {
    report(
      await runCrashCycles({ ...common, dialect: 'postgres', databaseUrl: scratch.url, cycles }),
    );
  } finally {
    await scratch.drop();
  }

  const missing = clusterToolsMissing();
  if (missing) {
    console.log(`PostgreSQL crashed mid-burst: skipped, ${missing}`);
  } else if (postgresCrashes > 0) {
    console.log(`PostgreSQL: ${postgresCrashes} cycles, PostgreSQL itself crashed mid-burst`);
    const cluster = createTestCluster();
    const dropCluster = () => cluster.drop();
    process.once('exit', dropCluster);
    try {
      const panel = await createScratchDatabase(cluster.url(), { prefix: 'client_panel_crash' });
      report(
        await runCrashCycles({
          ...common,
          dialect: 'postgres',
          databaseUrl: panel.url,
          cycles: postgresCrashes,
          fault: 'crash-postgres',
          crashPostgres: await postgresCrasher(cluster.url(), () => cluster.start()),
        }),
      );
    } finally {
      process.off('exit', dropCluster);
      cluster.drop();
    }
  }
}

const lost = results.reduce((sum, figures) => sum + figures.lost, 0);
const half = results.reduce((sum, figures) => sum + figures.half, 0);
console.log(
  lost + half === 0
    ? 'Every acknowledged write survived; nothing half there.'
    : `FAILED: ${lost} acknowledged writes lost, ${half} inconsistencies.`,
);
process.exit(lost + half === 0 ? 0 : 1);
