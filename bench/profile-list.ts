// Profiles the compiled server under one load of `npm run bench` (decision 0034): starts it
// with --cpu-prof on a fresh SQLite file (or PROFILE_DATABASE_URL's PostgreSQL scratch
// database), seeds 100,000 clients, loads one URL for BENCH_SECONDS with 10 connections, stops
// the server, and prints where its CPU went: self time by function and by package, and the
// share of the time the main thread was idle. Not part of `npm run bench`; a tool for finding
// what the framework path costs. Usage: node --import tsx bench/profile-list.ts [path?query]
import { type ChildProcess, fork } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createScratchDatabase } from '../src/server/test-support.ts';
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

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Which package (or part of the app) a script belongs to. */
function packageOf(url: string): string {
  if (!url) return '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const dist = url.indexOf('dist/server/');
  return dist >= 0 ? `app: ${url.slice(dist + 'dist/server/'.length)}` : url;
}

/**
 * Only the samples taken while the load ran: V8 stamps them in microseconds of the monotonic
 * clock, the one process.hrtime reads here, so the window is the load's own.
 */
function summarise(profile: Profile, window: { from: number; to: number }): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parentOf.set(child, node);
  }
  const totalByFunction = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  const selfByPackage = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    const node = byId.get(id);
    if (!node || at < window.from || at > window.to) return;
    total += delta;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') idle += delta;
    const name = `${functionName || '(anonymous)'} ${packageOf(url)}:${lineNumber + 1}`;
    // Total time: each function on the sample's stack once, however often it recurs.
    const onStack = new Set<string>();
    for (let frame: ProfileNode | undefined = node; frame; frame = parentOf.get(frame.id)) {
      const { functionName: f, url: u, lineNumber: l } = frame.callFrame;
      onStack.add(`${f || '(anonymous)'} ${packageOf(u)}:${l + 1}`);
    }
    for (const key of onStack) totalByFunction.set(key, (totalByFunction.get(key) ?? 0) + delta);
    selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + delta);
    const pkg = functionName.startsWith('(') ? functionName : packageOf(url);
    selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + delta);
  });
  const busy = total - idle;
  const share = (value: number) => `${((100 * value) / Math.max(1, busy)).toFixed(1)}%`;
  console.log(
    `main thread during the load: ${(total / 1e6).toFixed(1)} s profiled, idle ${((100 * idle) / Math.max(1, total)).toFixed(0)}%; shares below are of the busy time`,
  );
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .filter(([name]) => name !== '(idle)' && !name.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, count);
  console.log('\nself time by package:');
  for (const [name, time] of top(selfByPackage, 20)) console.log(`  ${share(time)}  ${name}`);
  console.log('\nself time by function:');
  for (const [name, time] of top(selfByFunction, 30)) console.log(`  ${share(time)}  ${name}`);
  console.log('\ntotal time (self and callees) by function:');
  for (const [name, time] of top(totalByFunction, 50)) console.log(`  ${share(time)}  ${name}`);
}

const microseconds = () => Number(process.hrtime.bigint() / 1000n);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-profile-'));
  const postgresUrl = process.env.PROFILE_DATABASE_URL;
  const scratch = postgresUrl
    ? await createScratchDatabase(postgresUrl, { prefix: 'client_panel_profile' })
    : undefined;
  const file = path.join(dir, 'bench.db');
  const window = { from: 0, to: Number.POSITIVE_INFINITY };
  const profileFlags = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
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
    const written = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    if (written) {
      const profileFile = path.join(dir, written);
      summarise(JSON.parse(readFileSync(profileFile, 'utf8')) as Profile, window);
      if (process.env.PROFILE_KEEP) {
        const kept = path.resolve(process.env.PROFILE_KEEP);
        copyFileSync(profileFile, kept);
        console.log(`\nprofile kept in ${kept}`);
      }
    }
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
