// Profiles the compiled server under one load of `npm run bench` (decision 0034): starts it
// with --cpu-prof on a fresh SQLite file (or PROFILE_DATABASE_URL's PostgreSQL scratch
// database), seeds 100,000 clients, loads one URL for BENCH_SECONDS with 10 connections, stops
// the server, and prints where its CPU went: self time by function and by package, and the
// share of the time the main thread was idle. Not part of `npm run bench`; a tool for finding
// what the framework path costs. Usage: node --import tsx bench/profile-list.ts [path?query]
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createScratchDatabase } from '../src/server/test-support.ts';
import { cpuProfileFlags, microseconds, summariseWrittenProfile } from './cpu-profile.ts';
import { seedPostgres, seedSqlite } from './seed-data.ts';
import {
  BENCH_AUTH_SECRET,
  signUpOperator,
  startServer,
  stop,
  waitForHealth,
} from './server-process.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const PORT = 3295;
const BASE = `http://127.0.0.1:${PORT}`;
const TARGET = process.argv[2] ?? '/api/clients?limit=100';
/** PROFILE_FLOOR=1: the floor (bench/floor-server.ts, or pg-floor-server.ts) rather than the app. */
const PROFILE_FLOOR = process.env.PROFILE_FLOOR === '1';
const FLOOR_PORT = 3296;

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-profile-'));
  const postgresUrl = process.env.PROFILE_DATABASE_URL;
  const scratch = postgresUrl
    ? await createScratchDatabase(postgresUrl, { prefix: 'client_panel_profile' })
    : undefined;
  const file = path.join(dir, 'bench.db');
  const window = { from: 0, to: Number.POSITIVE_INFINITY };
  const profileFlags = cpuProfileFlags(dir);
  const server = startServer({
    port: PORT,
    databaseUrl: scratch?.url ?? file,
    nodeFlags: PROFILE_FLOOR ? [] : profileFlags,
  });
  let floor: ChildProcess | undefined;
  try {
    await waitForHealth(BASE);
    const { cookie, userId: ownerId } = await signUpOperator(
      BASE,
      `http://localhost:${PORT}`,
      'bench@example.com',
    );
    if (scratch) await seedPostgres(scratch.url, ownerId, CLIENTS);
    else seedSqlite(file, ownerId, CLIENTS);
    let url = `${BASE}${TARGET}`;
    if (PROFILE_FLOOR) {
      const [script, database] = scratch
        ? ['bench/pg-floor-server.ts', scratch.url]
        : ['bench/floor-server.ts', file];
      floor = fork(script, [database, BENCH_AUTH_SECRET, String(FLOOR_PORT)], {
        execArgv: ['--import', 'tsx', ...profileFlags],
      });
      await new Promise((resolve) => floor?.once('message', resolve));
      url = `http://127.0.0.1:${FLOOR_PORT}${TARGET}`;
    }
    window.from = microseconds();
    const result = await autocannon({
      url,
      headers: { cookie },
      connections: 10,
      duration: DURATION_S,
    });
    window.to = microseconds();
    console.log(
      `${TARGET}: ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx + result.errors} errors`,
    );
  } finally {
    await stop(floor);
    await stop(server);
    summariseWrittenProfile(dir, window);
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
