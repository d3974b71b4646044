// npm run bench, second part: the same loads on SQLite and on PostgreSQL side by side; live
// events from one instance to sockets on another (latency, and a count of every event); and
// the list's throughput on one instance against two, each beside its floor, with the CPU each
// request costs. Prints figures; asserts nothing (machines are shared and noisy). PostgreSQL is
// BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the machine's; skipped with a line when none
// answers.
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import { createScratchDatabase } from '../src/server/test-support.ts';
import { SEARCHES, seedPostgres, seedSqlite } from './seed-data.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000);
const SOCKETS = 10;
const BASE_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-2026';
const PORTS = { sqlite: 3310, a: 3311, b: 3312, floorA: 3313, floorB: 3314 };
// Both instances answer as one site: the origin browsers would use.
const ORIGIN = `http://localhost:${PORTS.a}`;
const SERVER_ENTRY = path.join('dist', 'server', 'server', 'index.js');

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
}

function waitForHealth(port: number, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const attempt = () => {
      fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => (r.ok ? resolve() : retry()))
        .catch(retry);
    };
    const retry = () =>
      Date.now() - started > timeoutMs
        ? reject(new Error(`port ${port} never became healthy`))
        : setTimeout(attempt, 200);
    attempt();
  });
}

function startServer(port: number, databaseUrl: string): ChildProcess {
  return spawn(process.execPath, [SERVER_ENTRY], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: ORIGIN,
      AUTH_SECRET,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      LOG_FORMAT: 'json',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function signUp(port: number): Promise<{ cookie: string; userId: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench passphrase 2026' }),
  });
  if (!response.ok) throw new Error(`sign-up answered ${response.status}`);
  const cookie = (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const userId = ((await response.json()) as { user: { id: string } }).user.id;
  return { cookie, userId };
}

async function load(options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({
    connections: 10,
    pipelining: 1,
    duration: DURATION_S,
    ...options,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
    requests: result.requests.total,
  };
}

const createBody = JSON.stringify({
  fname: 'Bench',
  lname: 'Create',
  email: 'bench.create@example.com',
  phone: '9000000001',
  balance: '10.50',
});

/** The same four loads as the SQLite benchmark, on whichever database the server runs on. */
async function dialectLoads(port: number, cookie: string): Promise<Record<string, Figures>> {
  const base = `http://127.0.0.1:${port}`;
  const headers = { cookie };
  const figures: Record<string, Figures> = {};
  figures['GET /api/clients?limit=100'] = await load({
    url: `${base}/api/clients?limit=100`,
    headers,
  });
  for (const q of SEARCHES) {
    figures[`search q=${q}`] = await load({ url: `${base}/api/clients?limit=100&q=${q}`, headers });
  }
  figures['POST /api/clients'] = await load({
    url: `${base}/api/clients`,
    method: 'POST',
    headers: { ...headers, origin: ORIGIN, 'content-type': 'application/json' },
    body: createBody,
  });
  return figures;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** Creates on instance A, one at a time; every socket on instance B must see each exactly once. */
async function crossInstanceEvents(cookie: string) {
  const sockets = await Promise.all(
    Array.from(
      { length: SOCKETS },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${PORTS.b}/api/live`, {
            headers: { cookie },
            origin: ORIGIN,
          });
          socket.once('open', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  const seen = sockets.map(() => new Map<string, number>());
  // Creates go one at a time, so whatever arrives belongs to the create under way.
  let sentAt = 0;
  let arrived = 0;
  const latencies: number[] = [];
  sockets.forEach((socket, index) => {
    socket.on('message', (data) => {
      const at = performance.now();
      const event = JSON.parse(String(data)) as { type: string; client?: { id: string } };
      if (event.type !== 'client.created' || !event.client) return;
      const counts = seen[index];
      counts?.set(event.client.id, (counts.get(event.client.id) ?? 0) + 1);
      latencies.push(at - sentAt);
      arrived += 1;
    });
  });
  const created: string[] = [];
  for (let i = 0; i < EVENTS; i += 1) {
    arrived = 0;
    sentAt = performance.now();
    const response = await fetch(`http://127.0.0.1:${PORTS.a}/api/clients`, {
      method: 'POST',
      headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body: createBody,
    });
    if (response.status !== 201) throw new Error(`create answered ${response.status}`);
    created.push(((await response.json()) as { id: string }).id);
    // Wait for this event on every socket (or a second) before the next create.
    const until = Date.now() + 1_000;
    while (arrived < SOCKETS && Date.now() < until) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  let lost = 0;
  let duplicated = 0;
  for (const counts of seen) {
    for (const id of created) {
      const count = counts.get(id) ?? 0;
      if (count === 0) lost += 1;
      if (count > 1) duplicated += count - 1;
    }
  }
  for (const socket of sockets) socket.close();
  latencies.sort((x, y) => x - y);
  return {
    delivered: latencies.length,
    expected: EVENTS * SOCKETS,
    lost,
    duplicated,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** CPU seconds used so far by a process (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** CPU seconds of each PostgreSQL server process now (the backends serving the instances). */
function postgresCpu(): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') {
        cpu.set(Number(entry), cpuSeconds(Number(entry)));
      }
    } catch {
      // the process ended meanwhile
    }
  }
  return cpu;
}

/**
 * PostgreSQL CPU used since `before`, process by process: a backend that started since
 * counts from zero; one that ended took its count with it (a small undercount, never a
 * negative one).
 */
function postgresCpuSince(before: Map<number, number>): number {
  let used = 0;
  for (const [pid, now] of postgresCpu()) used += now - (before.get(pid) ?? 0);
  return used;
}

/** The list load spread over the given servers at once (10 connections in all). */
async function listAcross(ports: number[], cookie: string, pids: number[]) {
  const appBefore = pids.map(cpuSeconds);
  const pgBefore = postgresCpu();
  const connections = Math.floor(10 / ports.length);
  const runs = await Promise.all(
    ports.map((port) =>
      load({
        url: `http://127.0.0.1:${port}/api/clients?limit=100`,
        headers: { cookie },
        connections,
      }),
    ),
  );
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const appCpu = pids.reduce((sum, pid, i) => sum + cpuSeconds(pid) - (appBefore[i] ?? 0), 0);
  const pgCpu = postgresCpuSince(pgBefore);
  return {
    rps: runs.reduce((sum, run) => sum + run.rps, 0),
    p99: Math.max(...runs.map((run) => run.p99)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
    appMsPerRequest: (appCpu * 1000) / Math.max(1, requests),
    pgMsPerRequest: (pgCpu * 1000) / Math.max(1, requests),
  };
}

function forkFloor(url: string, port: number): Promise<ChildProcess> {
  const floor = fork('bench/pg-floor-server.ts', [url, AUTH_SECRET, String(port)], {
    execArgv: ['--import', 'tsx'],
  });
  return new Promise((resolve) => floor.once('message', () => resolve(floor)));
}

const fmt = (f: Figures | undefined) =>
  f ? `${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.errors}` : '– | – | – | –';

async function main(): Promise<void> {
  // Without a PostgreSQL the rest of `npm run bench` still runs: this part says why it did not.
  const scratch = await createScratchDatabase(BASE_URL, {
    prefix: 'client_panel_bench',
    connectionTimeoutMillis: 3_000,
  }).catch((error: Error) => {
    console.log(`skipped: nothing answers at ${BASE_URL} (${error.message})`);
    return null;
  });
  if (!scratch) return;
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-scale-bench-'));
  const children: (ChildProcess | undefined)[] = [];
  try {
    // The same loads on SQLite, then on PostgreSQL.
    const sqliteFile = path.join(dir, 'bench.db');
    const sqliteServer = startServer(PORTS.sqlite, sqliteFile);
    children.push(sqliteServer);
    await waitForHealth(PORTS.sqlite);
    const onSqlite = await signUp(PORTS.sqlite);
    seedSqlite(sqliteFile, onSqlite.userId, CLIENTS);
    const sqliteFigures = await dialectLoads(PORTS.sqlite, onSqlite.cookie);
    await stop(sqliteServer);

    const a = startServer(PORTS.a, scratch.url);
    children.push(a);
    await waitForHealth(PORTS.a);
    const owner = await signUp(PORTS.a);
    const seedStarted = performance.now();
    await seedPostgres(scratch.url, owner.userId, CLIENTS);
    console.log(
      `seeded ${CLIENTS.toLocaleString('en')} clients into PostgreSQL in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    const pgFigures = await dialectLoads(PORTS.a, owner.cookie);

    console.log(
      `\n${CLIENTS.toLocaleString('en')} clients, ${DURATION_S} s each, 10 connections\n`,
    );
    console.log(
      '| load | SQLite req/s | p50 | p99 | errors | PostgreSQL req/s | p50 | p99 | errors |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const name of Object.keys(pgFigures)) {
      console.log(`| ${name} | ${fmt(sqliteFigures[name])} | ${fmt(pgFigures[name])} |`);
    }
    for (const q of SEARCHES) {
      const s = sqliteFigures[`search q=${q}`];
      const p = pgFigures[`search q=${q}`];
      if (s && p)
        console.log(`search q=${q}: PostgreSQL p99 / SQLite p99 = ${(p.p99 / s.p99).toFixed(2)}`);
    }

    // A second instance on the same database.
    const b = startServer(PORTS.b, scratch.url);
    children.push(b);
    await waitForHealth(PORTS.b);
    const events = await crossInstanceEvents(owner.cookie);
    console.log(
      `\ncreate on instance A → event on ${SOCKETS} sockets of instance B, ${EVENTS} creates: ` +
        `p50 ${events.p50.toFixed(2)} ms, p99 ${events.p99.toFixed(2)} ms; ` +
        `delivered ${events.delivered} of ${events.expected}, lost ${events.lost}, duplicated ${events.duplicated}`,
    );

    const floorA = await forkFloor(scratch.url, PORTS.floorA);
    const floorB = await forkFloor(scratch.url, PORTS.floorB);
    children.push(floorA, floorB);
    const pid = (child: ChildProcess) => child.pid ?? 0;
    const oneInstance = await listAcross([PORTS.a], owner.cookie, [pid(a)]);
    const twoInstances = await listAcross([PORTS.a, PORTS.b], owner.cookie, [pid(a), pid(b)]);
    const oneFloor = await listAcross([PORTS.floorA], owner.cookie, [pid(floorA)]);
    const twoFloors = await listAcross([PORTS.floorA, PORTS.floorB], owner.cookie, [
      pid(floorA),
      pid(floorB),
    ]);
    console.log('\nGET /api/clients?limit=100 on PostgreSQL, 10 connections in all\n');
    console.log('| servers | req/s | p99 ms | errors | app CPU ms/req | PostgreSQL CPU ms/req |');
    console.log('|---|---:|---:|---:|---:|---:|');
    for (const [name, r] of [
      ['one instance', oneInstance],
      ['two instances', twoInstances],
      ['one floor (same work, no framework)', oneFloor],
      ['two floors', twoFloors],
    ] as const) {
      console.log(
        `| ${name} | ${r.rps.toFixed(0)} | ${r.p99} | ${r.errors} | ${r.appMsPerRequest.toFixed(3)} | ${r.pgMsPerRequest.toFixed(3)} |`,
      );
    }
    const perRequest = oneInstance.appMsPerRequest + oneInstance.pgMsPerRequest;
    console.log(
      `\ntwo instances / one: ${(twoInstances.rps / oneInstance.rps).toFixed(2)}; one instance / its floor: ${(oneInstance.rps / oneFloor.rps).toFixed(2)}; two / two floors: ${(twoInstances.rps / twoFloors.rps).toFixed(2)}`,
    );
    console.log(
      `each list request costs ${oneInstance.appMsPerRequest.toFixed(3)} ms of app CPU and ${oneInstance.pgMsPerRequest.toFixed(3)} ms of PostgreSQL CPU: ` +
        `about ${(1000 / perRequest).toFixed(0)} requests/s per core for the pair, so N instances on N cores (PostgreSQL on cores of its own) ` +
        `could serve about N × ${(1000 / oneInstance.appMsPerRequest).toFixed(0)} requests/s while PostgreSQL keeps up (${(1000 / oneInstance.pgMsPerRequest).toFixed(0)} per PostgreSQL core)`,
    );
  } finally {
    for (const child of children) await stop(child);
    await scratch.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
