// npm run bench: the app's list, search and create throughput and latency at 100,000
// clients, against a bare-Fastify floor over the same file, and how fast a change reaches
// 100 open live sockets. Prints figures; asserts nothing (machines are shared and noisy).
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import WebSocket from 'ws';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const SOCKETS = 100;
const CHANGES = 200;
const PORT = 3290;
const FLOOR_PORT = 3291;
const ORIGIN = `http://localhost:${PORT}`;
// A broad search (a common surname: 5% of all clients) and a specific one (part of an e-mail).
const SEARCHES = ['kumar', 'sharma.12'];

const firstNames = [
  'Aarav',
  'Vivaan',
  'Aditya',
  'Vihaan',
  'Arjun',
  'Sai',
  'Reyansh',
  'Ayaan',
  'Krishna',
  'Ishaan',
  'Ananya',
  'Diya',
  'Aadhya',
  'Saanvi',
  'Pari',
  'Anika',
  'Navya',
  'Myra',
  'Sara',
  'Kiara',
];
const lastNames = [
  'Sharma',
  'Verma',
  'Gupta',
  'Singh',
  'Kumar',
  'Patel',
  'Reddy',
  'Iyer',
  'Nair',
  'Das',
  'Bose',
  'Mehta',
  'Shah',
  'Joshi',
  'Rao',
  'Pillai',
  'Menon',
  'Chopra',
  'Malhotra',
  'Kapoor',
];

function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const attempt = () => {
      fetch(url)
        .then((r) => (r.ok ? resolve() : retry()))
        .catch(retry);
    };
    const retry = () =>
      Date.now() - started > timeoutMs
        ? reject(new Error(`${url} never became healthy`))
        : setTimeout(attempt, 200);
    attempt();
  });
}

function seed(file: string, ownerId: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(
    `INSERT INTO clients (id, owner_id, fname, lname, email, phone, balance_paise, version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
  );
  let total = 0n;
  db.transaction(() => {
    for (let i = 0; i < CLIENTS; i += 1) {
      const fname = firstNames[i % firstNames.length] ?? 'A';
      const lname = lastNames[Math.floor(i / firstNames.length) % lastNames.length] ?? 'B';
      const paise = ((i * 7919) % 10_000_000) - 2_000_000;
      total += BigInt(paise);
      const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
      insert.run(
        randomUUID(),
        ownerId,
        fname,
        `${lname}${i % 97}`,
        `${fname}.${lname}.${i}@example.com`.toLowerCase(),
        String(9_000_000_000 + i),
        paise,
        at,
        at,
      );
    }
    db.prepare(
      'INSERT INTO owner_totals (owner_id, client_count, total_paise) VALUES (?, ?, ?)',
    ).run(ownerId, CLIENTS, total);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(name: string, options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({
    connections: 10,
    pipelining: 1,
    duration: DURATION_S,
    ...options,
  });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function liveLatency(cookie: string): Promise<{ p50: number; p99: number; samples: number }> {
  const sockets = await Promise.all(
    Array.from(
      { length: SOCKETS },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(`ws://127.0.0.1:${PORT}/api/live`, {
            headers: { cookie },
            origin: ORIGIN,
          });
          socket.once('open', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  const latencies: number[] = [];
  for (let change = 0; change < CHANGES; change += 1) {
    const arrived = sockets.map(
      (socket) =>
        new Promise<number>((resolve) => socket.once('message', () => resolve(performance.now()))),
    );
    const sentAt = performance.now();
    const response = await fetch(`http://127.0.0.1:${PORT}/api/clients`, {
      method: 'POST',
      headers: { cookie, origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({
        fname: 'Live',
        lname: 'Bench',
        email: 'live@example.com',
        phone: '9000000000',
        balance: '0',
      }),
    });
    if (response.status !== 201) throw new Error(`create answered ${response.status}`);
    for (const at of await Promise.all(arrived)) latencies.push(at - sentAt);
  }
  for (const socket of sockets) socket.close();
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    samples: latencies.length,
  };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-bench-'));
  const file = path.join(dir, 'bench.db');
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/index.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL: file,
      PUBLIC_URL: ORIGIN,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let floor: ChildProcess | undefined;
  try {
    await waitForHealth(`http://127.0.0.1:${PORT}/api/health`);
    const signUp = await fetch(`http://127.0.0.1:${PORT}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bench@example.com', password: 'bench passphrase 2026' }),
    });
    const cookie = (signUp.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const ownerId = ((await signUp.json()) as { user: { id: string } }).user.id;
    const seedStarted = performance.now();
    seed(file, ownerId);
    console.log(
      `seeded ${CLIENTS.toLocaleString('en')} clients in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    floor = fork('bench/floor-server.ts', [file, ownerId, String(FLOOR_PORT)], {
      execArgv: ['--import', 'tsx'],
    });
    await new Promise<void>((resolve) => floor?.once('message', () => resolve()));

    const headers = { cookie };
    const base = `http://127.0.0.1:${PORT}`;
    const results: Figures[] = [];
    results.push(
      await load('floor: bare page query', { url: `http://127.0.0.1:${FLOOR_PORT}/floor` }),
    );
    results.push(
      await load('GET /api/clients?limit=100', { url: `${base}/api/clients?limit=100`, headers }),
    );
    for (const q of SEARCHES) {
      const url = `${base}/api/clients?limit=100&q=${q}`;
      const matches = ((await (await fetch(url, { headers })).json()) as { total: number }).total;
      results.push(
        await load(`GET /api/clients?limit=100&q=${q} (${matches} matches)`, { url, headers }),
      );
    }
    // Change-to-event time on a quiet server, and again right after the create load
    // (while the background checkpoint copies that load's WAL into the database).
    const liveQuiet = await liveLatency(cookie);
    results.push(
      await load('POST /api/clients', {
        url: `${base}/api/clients`,
        method: 'POST',
        headers: { ...headers, origin: ORIGIN, 'content-type': 'application/json' },
        body: JSON.stringify({
          fname: 'Bench',
          lname: 'Create',
          email: 'bench.create@example.com',
          phone: '9000000001',
          balance: '10.50',
        }),
      }),
    );
    const liveAfterLoad = await liveLatency(cookie);

    console.log(
      `\n${CLIENTS.toLocaleString('en')} clients, ${DURATION_S} s each, 10 connections, no pipelining\n`,
    );
    console.log('| load | requests/s | p50 ms | p99 ms | errors |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of results)
      console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
    const floorRps = results[0]?.rps ?? 1;
    console.log(`\nlist throughput / floor: ${((results[1]?.rps ?? 0) / floorRps).toFixed(2)}`);
    for (const [when, live] of [
      ['quiet server', liveQuiet],
      ['right after the create load', liveAfterLoad],
    ] as const) {
      console.log(
        `create → event on ${SOCKETS} sockets, ${when} (${live.samples} samples): p50 ${live.p50.toFixed(2)} ms, p99 ${live.p99.toFixed(2)} ms`,
      );
    }
  } finally {
    if (floor) await stop(floor);
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
