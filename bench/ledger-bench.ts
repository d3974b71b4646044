// npm run bench, ledger part: the app on SQLite with 100,000 clients and 1,000,000 ledger
// entries — recording payments beside creating clients, what settling unpaid amounts costs a
// payment (issue 21: against payments that settle nothing, and against the payments of the
// build before issue 21, built from this checkout's history), the ageing, a page of history and a year's statement of a client with
// 10,000 entries, and the 90-day chart of the total owed. Prints figures; asserts only that
// what it measured was answered (every status as expected), that the seeded ledger adds up
// (each balance is the sum of its entries) and that the unpaid amounts still do after the
// payments (each client's add up to what it owes, the operator's sums to its amounts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { addDays } from '../src/shared/ledger-schema.ts';
import { formatAmount } from '../src/shared/money.ts';
import { BEFORE_ISSUE_21, buildAt } from './build-before.ts';
import { cpuProfileFlags, microseconds, summariseWrittenProfile } from './cpu-profile.ts';
import { seedLedgerSqlite, shuffled, unpaidProblemsSqlite } from './seed-data.ts';
import { cpuMicros, signUpOperator, startServer, stop, waitForHealth } from './server-process.ts';

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
/**
 * LEDGER_PROFILE=settle (or none): profiles the server (--cpu-prof) under that one payment load
 * of the settling comparison, for BENCH_SECONDS, prints where its time went, and stops there.
 */
const PROFILE = ((name) => {
  if (name === undefined || name === 'settle' || name === 'none') return name;
  throw new Error(`LEDGER_PROFILE: settle or none, not ${name}`);
})(process.env.LEDGER_PROFILE);

function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE }).format(new Date());
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests answered, and the server's CPU time meanwhile (µs), where the load measured it. */
  requests?: number;
  serverCpuUs?: number;
}

function load(
  name: string,
  options: autocannon.Options,
  seconds: number = DURATION_S,
): Promise<Figures> {
  return new Promise((resolve, reject) => {
    autocannon(
      { connections: CONNECTIONS, pipelining: 1, duration: seconds, ...options },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              name,
              rps: result.requests.average,
              p50: result.latency.p50,
              p99: result.latency.p99,
              errors: result.errors + result.non2xx + result.timeouts,
              requests: result.requests.total,
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

/**
 * The ageing as computed when nothing is kept (decision 0040): each request on one connection
 * follows a charge that changes the operator's sums, so the instance reads them again. Only
 * the reads are timed.
 */
async function uncachedAgeing(
  url: string,
  headers: Record<string, string>,
  clientId: string,
): Promise<Figures> {
  const latencies: number[] = [];
  let busy = 0;
  for (let i = 0; i < SEQUENTIAL; i += 1) {
    const charged = await fetch(`${BASE}/api/clients/${clientId}/entries`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ kind: 'charge', amount: '1.00', note: 'bench' }),
    });
    if (charged.status !== 201) throw new Error(`a charge answered ${charged.status}`);
    const sentAt = performance.now();
    const response = await fetch(url, { headers: { cookie: headers.cookie ?? '' } });
    await response.arrayBuffer();
    const took = performance.now() - sentAt;
    latencies.push(took);
    busy += took;
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  }
  latencies.sort((a, b) => a - b);
  return {
    name: 'ageing: GET /api/ageing, each after a charge that changes the sums (nothing kept; 1 connection)',
    rps: SEQUENTIAL / (busy / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: 0,
  };
}

const SETTLING_NOTE = `  "Today's rate" is the rate before issue 21: measured in this run as payments on clients in
  credit, which have nothing unpaid before or after, so the issue's unpaid-amount upkeep (settle
  the oldest first, the sums by due date, the client's due dates) does nothing for them. What
  else issue 21 added to every payment (its day's collected sum, a read of the client's due
  state) is in both figures; a payment that settles also marks the client dealt with on the
  day's round, which is counted against it. Same amounts, same connections; after a first
  run of each that is not counted (the server warming up), the two loads alternate in eight
  runs (none, settle, settle, none, twice) so that neither gets the quieter or the warmer part.`;

interface Arrears {
  id: string;
  unpaid: number;
  paymentPaise: bigint;
}

/**
 * The same payments on clients in credit (nothing unpaid to settle) and on owing clients, both
 * in an order scattered over the table, each owing client paying its oldest unpaid amount and
 * half the next; each client paid once while the list lasts. Answers the two loads, and their
 * figures to print.
 */
/**
 * A load of payments, each on the next client of `clientIds` (round again once they run out)
 * with the amount of the arrears at the same place: answers the load and how many it sent.
 */
function paymentLoad(
  name: string,
  server: { base: string; headers: Record<string, string>; pid?: number },
  clientIds: readonly (string | undefined)[],
  arrears: readonly Arrears[],
) {
  let next = 0;
  const run = (seconds: number) =>
    withServerCpu(server.pid, () =>
      load(
        name,
        {
          url: server.base,
          requests: [
            {
              method: 'POST',
              headers: server.headers,
              setupRequest: (request) => {
                const i = next++;
                const amount = formatAmount(arrears[i % arrears.length]?.paymentPaise ?? 100n);
                return {
                  ...request,
                  path: `/api/clients/${clientIds[i % clientIds.length]}/entries`,
                  body: JSON.stringify({ kind: 'payment', amount, note: 'bench' }),
                };
              },
            },
          ],
        },
        seconds,
      ),
    );
  return { run, sent: () => next };
}

function settlingLoads(
  headers: Record<string, string>,
  creditIds: readonly string[],
  arrears: readonly Arrears[],
  pid?: number,
) {
  const server = { base: BASE, headers, ...(pid === undefined ? {} : { pid }) };
  const none = paymentLoad(
    'payment on a client in credit (nothing to settle)',
    server,
    creditIds,
    arrears,
  );
  const settle = paymentLoad(
    'payment settling unpaid amounts, oldest first',
    server,
    arrears.map((owing) => owing.id),
    arrears,
  );
  return { none: none.run, settle: settle.run, settledSoFar: settle.sent };
}

type Load = (seconds: number) => Promise<Figures>;

/**
 * A load's figures with the CPU time its server spent meanwhile (user and system, all its
 * threads, from /proc): a comparison of two servers that leaves out the load generator's share
 * of the cores and the machine's other work, which move the throughput from run to run.
 */
async function withServerCpu(
  pid: number | undefined,
  run: () => Promise<Figures>,
): Promise<Figures> {
  if (pid === undefined) return run();
  const before = cpuMicros(pid);
  const figures = await run();
  return { ...figures, serverCpuUs: cpuMicros(pid) - before };
}

/** The counted runs, in this order: a drift of the machine's speed falls on both loads alike. */
const TURNS = ['first', 'second', 'second', 'first', 'first', 'second', 'second', 'first'] as const;

/**
 * Two loads in turns, each after a first run that is not counted (the first writes after
 * another load find colder caches and a longer WAL); `counting` is called when the counted
 * runs begin. Answers each load's runs combined (mean throughput and p50, worst p99) and the
 * runs in the order run.
 */
async function inTurns(
  loads: { first: { kind: string; run: Load }; second: { kind: string; run: Load } },
  counting: () => void = () => {},
): Promise<{ first: Figures; second: Figures; runs: string }> {
  const slice = (2 * DURATION_S) / TURNS.length;
  await loads.first.run(slice);
  await loads.second.run(slice);
  counting();
  const runs: { turn: (typeof TURNS)[number]; figures: Figures }[] = [];
  for (const turn of TURNS) runs.push({ turn, figures: await loads[turn].run(slice) });
  const combined = (turn: (typeof TURNS)[number]): Figures => {
    const of = runs.filter((run) => run.turn === turn).map((run) => run.figures);
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
    return {
      name: of[0]?.name ?? turn,
      rps: mean(of.map((f) => f.rps)),
      p50: mean(of.map((f) => f.p50)),
      p99: Math.max(...of.map((f) => f.p99)),
      errors: of.reduce((sum, f) => sum + f.errors, 0),
      requests: of.reduce((sum, f) => sum + (f.requests ?? 0), 0),
      ...(of.every((f) => f.serverCpuUs !== undefined)
        ? { serverCpuUs: of.reduce((sum, f) => sum + (f.serverCpuUs ?? 0), 0) }
        : {}),
    };
  };
  return {
    first: combined('first'),
    second: combined('second'),
    runs: `${runs.map((run) => `${loads[run.turn].kind} ${run.figures.rps.toFixed(0)}`).join(', ')} req/s`,
  };
}

async function compareSettling(
  loads: ReturnType<typeof settlingLoads>,
  arrears: readonly Arrears[],
): Promise<{ none: Figures; settle: Figures; figures: Figures[]; runs: string }> {
  let firstCounted = 0;
  const turns = await inTurns(
    { first: { kind: 'none', run: loads.none }, second: { kind: 'settle', run: loads.settle } },
    () => {
      firstCounted = loads.settledSoFar();
    },
  );
  const settled = arrears.slice(firstCounted, loads.settledSoFar());
  const unpaidEach = settled.reduce((sum, a) => sum + a.unpaid, 0) / Math.max(settled.length, 1);
  const none = {
    ...turns.first,
    name: 'POST /api/clients/:id/entries (payment; client in credit: no unpaid amounts to settle)',
  };
  const settle = {
    ...turns.second,
    name: `POST /api/clients/:id/entries (payment; client owing ${unpaidEach.toFixed(1)} unpaid amounts on average: settles the oldest and half the next)`,
  };
  return { none, settle, figures: [none, settle], runs: turns.runs };
}

const BEFORE_PORT = 3293;

/**
 * Issue 21's own words, measured: settling payments on today's build against the same
 * payments recorded by the build before issue 21 (bench/build-before.ts), each server on a
 * database of its own seeded by its own commit's bench with the same clients and entries, the
 * two loaded in turns. The old build kept no unpaid amounts, so a payment cost it the same on
 * any client: its clients are taken in a scattered order, with the settling payments' amounts.
 */
async function againstBuildBefore(
  dir: string,
  settle: Load,
  arrears: readonly Arrears[],
): Promise<{ before: Figures; settle: Figures; runs: string } | { missing: string }> {
  const build = buildAt(BEFORE_ISSUE_21);
  if ('missing' in build) return build;
  const file = path.join(dir, 'before.db');
  const server = startServer({
    port: BEFORE_PORT,
    databaseUrl: file,
    entry: build.entry,
    env: { TIME_ZONE, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn' },
  });
  try {
    const base = `http://127.0.0.1:${BEFORE_PORT}`;
    await waitForHealth(base);
    const origin = `http://localhost:${BEFORE_PORT}`;
    const operator = await signUpOperator(base, origin, 'before@example.com');
    const { seedLedgerSqlite: seedBefore } = await build.load<{
      seedLedgerSqlite: typeof seedLedgerSqlite;
    }>('bench/seed-data.ts');
    const { clientIds } = seedBefore(file, operator.userId, {
      clients: CLIENTS,
      entries: ENTRIES,
      today: today(),
    });
    const headers = { cookie: operator.cookie, origin, 'content-type': 'application/json' };
    const before = paymentLoad(
      `POST /api/clients/:id/entries (payment) on the build before issue 21 (${BEFORE_ISSUE_21.slice(0, 7)})`,
      { base, headers, ...(server.pid === undefined ? {} : { pid: server.pid }) },
      shuffled(clientIds),
      arrears,
    ).run;
    const turns = await inTurns({
      first: { kind: 'before', run: before },
      second: { kind: 'settle', run: settle },
    });
    const settling = {
      ...turns.second,
      name: `POST /api/clients/:id/entries (payment settling unpaid amounts), in turns with the build before issue 21`,
    };
    return { before: turns.first, settle: settling, runs: turns.runs };
  } finally {
    await stop(server);
    build.remove();
  }
}

/** Server CPU a request of two loads, and the first's over the second's (as throughput would be). */
function cpuComparison(firstName: string, first: Figures, secondName: string, second: Figures) {
  const perRequest = (figures: Figures) =>
    (figures.serverCpuUs ?? Number.NaN) / (figures.requests ?? 0);
  const a = perRequest(first);
  const b = perRequest(second);
  return `server CPU ${firstName} / ${secondName}: ${a.toFixed(0)} / ${b.toFixed(0)} µs, ${(a / b).toFixed(2)} (the same comparison without the load generator's share of the cores)`;
}

const ms = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-ledger-bench-'));
  const file = path.join(dir, 'bench.db');
  const [command = process.execPath, ...args] = SERVER_COMMAND;
  const server = spawn(command, [...(PROFILE ? cpuProfileFlags(dir) : []), ...args], {
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
    await waitForHealth(BASE);
    const signUp = await fetch(`${BASE}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ledger@example.com', password: 'bench passphrase 2026' }),
    });
    if (!signUp.ok) throw new Error(`sign-up answered ${signUp.status}`);
    const cookie = (signUp.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const ownerId = ((await signUp.json()) as { user: { id: string } }).user.id;
    const seedStarted = performance.now();
    const seeded = seedLedgerSqlite(file, ownerId, {
      clients: CLIENTS,
      entries: ENTRIES,
      today: today(),
    });
    const { clientIds, heavyId, entries, creditIds, arrears } = seeded;
    console.log(
      `seeded ${clientIds.length.toLocaleString('en')} clients and ${entries.toLocaleString('en')} entries in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s: ${seeded.dues.toLocaleString('en')} unpaid amounts of ${arrears.length.toLocaleString('en')} clients owing (${creditIds.length.toLocaleString('en')} in credit), ${seeded.ownerDues.toLocaleString('en')} sums by (due date, previous due date)`,
    );
    if (creditIds.length === 0 || arrears.length === 0) {
      throw new Error('the seed left no client in credit or none owing: nothing to compare');
    }

    const writeHeaders = { cookie, origin: ORIGIN, 'content-type': 'application/json' };
    if (PROFILE) {
      const window = { from: microseconds(), to: 0 };
      const figures = await settlingLoads(writeHeaders, creditIds, arrears, server.pid)[PROFILE](
        DURATION_S,
      );
      window.to = microseconds();
      console.log(
        `${figures.name}: ${figures.rps.toFixed(0)} req/s, p50 ${ms(figures.p50)} ms, p99 ${ms(figures.p99)} ms, ${figures.errors} errors`,
      );
      await stop(server);
      summariseWrittenProfile(dir, window);
      return;
    }
    const end = today();
    const results: Figures[] = [];
    const creates = await load('POST /api/clients (create, opening entry)', {
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
    });
    results.push(creates);
    const loads = settlingLoads(writeHeaders, creditIds, arrears, server.pid);
    const settling = await compareSettling(loads, arrears);
    results.push(...settling.figures);
    const beforeIssue = await againstBuildBefore(dir, loads.settle, arrears);
    if ('before' in beforeIssue) results.push(beforeIssue.before, beforeIssue.settle);
    // Payments on clients picked at random among the 100,000, as a counter would record them.
    let pick = 0;
    const payments = await load(
      'POST /api/clients/:id/entries (payment; clients picked across all)',
      {
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
      },
    );
    results.push(payments);

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
    const ageingUrl = `${BASE}/api/ageing`;
    const reads: [string, string][] = [
      [`ageing: GET /api/ageing (${seeded.ownerDues.toLocaleString('en')} sums)`, ageingUrl],
      ['history: newest 50 of 10,000 entries', historyUrl],
      ['history: 50 entries, 100 pages back', `${historyUrl}&cursor=${cursor}`],
      ['statement: a year, 10,000 entries', statementUrl],
      ['statement: a month of the same client, about 820 entries', monthUrl],
      [`chart: total owed, 90 days (${entries.toLocaleString('en')} entries)`, chartUrl],
    ];
    const loaded = new Map<string, Figures>();
    for (const [name, url] of reads) {
      results.push(await sequential(name, url, cookie));
      const figures = await load(`${name} (${CONNECTIONS} connections)`, {
        url,
        headers: { cookie },
      });
      loaded.set(url, figures);
      results.push(figures);
    }

    const uncached = await uncachedAgeing(ageingUrl, writeHeaders, arrears[0]?.id ?? '');
    results.push(uncached);

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
    console.log(
      `\npayments / creates (throughput): ${(payments.rps / creates.rps).toFixed(2)} (target ≥ 0.8)`,
    );
    const ageing = loaded.get(ageingUrl);
    console.log(
      `GET /api/ageing p99 at ${CONNECTIONS} connections: ${ms(ageing?.p99 ?? Number.NaN)} ms (target ≤ 50 ms); computed afresh (after a write, 1 connection): p50 ${ms(uncached.p50)} ms, p99 ${ms(uncached.p99)} ms`,
    );
    console.log(
      `payments settling unpaid amounts / payments with none to settle (throughput): ${(settling.settle.rps / settling.none.rps).toFixed(2)} (target ≥ 0.8: "recording a payment stays within 20% of today's rate")`,
    );
    console.log(`  the counted runs in order: ${settling.runs}`);
    console.log(
      `  ${cpuComparison('a payment in credit', settling.none, 'a settling one', settling.settle)}`,
    );
    console.log(SETTLING_NOTE);
    if ('before' in beforeIssue) {
      console.log(
        `payments settling unpaid amounts / payments on the build before issue 21 (throughput): ${(beforeIssue.settle.rps / beforeIssue.before.rps).toFixed(2)} (target ≥ 0.8: the same, measured against "today's rate" itself)`,
      );
      console.log(`  the counted runs in order: ${beforeIssue.runs}`);
      console.log(
        `  ${cpuComparison('a payment on the build before issue 21', beforeIssue.before, 'a settling one today', beforeIssue.settle)}`,
      );
    } else {
      console.log(`payments on the build before issue 21: not measured (${beforeIssue.missing})`);
    }
    const db = new Database(file, { readonly: true });
    const problems = unpaidProblemsSqlite(db, ownerId);
    db.close();
    if (problems)
      throw new Error(`after the payments, the unpaid amounts do not add up: ${problems}`);
    console.log('after the payments, every unpaid amount still adds up: yes');
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
