import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BEFORE_ISSUE_21, hasCommit } from '../bench/build-before.ts';
import { freePort, waitForHealth } from '../bench/server-process.ts';
import {
  authenticatorCode,
  GOOD_PASSWORD,
  signUp,
  startTestApp,
  type TestApp,
  uniqueEmail,
} from '../src/server/test-support.ts';
import { inCi } from './in-ci.mjs';
import { runNpmScript, startNpmScript } from './run-npm-script.ts';

// Every npm script the README gives a person, run as they run it (`npm run NAME`, the real entry
// point and its wiring) at the smallest size that still goes through all of it, so that none
// can stop working unnoticed again. The ones that need the build use the one `npm run test:e2e`
// has just made (`npm test` runs this project last), or make it once first. They run a few at a
// time (the project's maxConcurrency): most of their time is spent waiting on child processes.

const postgresUrl = process.env.TEST_DATABASE_URL;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-npm-scripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MINUTES = 60_000;

/** Runs the script to its end and checks it succeeded, showing its output when it did not. */
async function runsGreen(
  name: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = 4 * MINUTES,
): Promise<string> {
  const run = await runNpmScript(name, args, env, timeoutMs);
  expect(run.code, `npm run ${name} failed:\n${run.output.slice(-6000)}`).toBe(0);
  return run.output;
}

/**
 * The cells of every Markdown table in `output` under a header named `column`: the benches
 * print an error count beside each figure, which a working bench keeps at 0.
 */
function tableColumn(output: string, column: string): string[] {
  const cells: string[] = [];
  let index = -1;
  for (const line of output.split('\n')) {
    if (!line.startsWith('|')) {
      index = -1;
      continue;
    }
    const row = line.split('|').map((cell) => cell.trim());
    if (index === -1) index = row.indexOf(column);
    else if (!row.every((cell) => /^-*:?-*:?$/.test(cell))) cells.push(row[index] ?? '');
  }
  return cells;
}

// PostgreSQL parts run when there is a PostgreSQL to run them on, as in the server suite.
const postgresEnv = postgresUrl
  ? { BENCH_DATABASE_URL: postgresUrl, CRASH_DATABASE_URL: postgresUrl }
  : { BENCH_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', CRASH_ONLY: 'sqlite' };

beforeAll(async () => {
  // Once, before scripts that would each build a stale build at the same time.
  const built = await new Promise<number | null>((resolve) =>
    spawn(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' }).once(
      'exit',
      resolve,
    ),
  );
  expect(built).toBe(0);
}, 5 * MINUTES);

describe.concurrent('the scripts that need the build', () => {
  test('npm start serves the panel, and stops on Ctrl-C', async () => {
    const port = await freePort();
    const started = startNpmScript('start', [], {
      PORT: String(port),
      DATABASE_URL: path.join(dir, 'start.db'),
      LOG_LEVEL: 'warn',
    });
    try {
      await waitForHealth(`http://127.0.0.1:${port}`, 2 * MINUTES);
      const page = await fetch(`http://127.0.0.1:${port}/login`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
    } finally {
      const stopped = await started.stop('SIGINT');
      expect(stopped.leftBehind, stopped.output).toBe(false);
    }
  });

  // The benchmark's parts side by side (each listens on ports of its own), every one through
  // `npm run bench` as a person runs it, at the smallest size that goes through all of it.
  const benchEnv = {
    ...postgresEnv,
    BENCH_CLIENTS: '200',
    BENCH_SECONDS: '0.2',
    BENCH_EVENTS: '5',
    BENCH_SAVES: '10',
    BENCH_IMPORT_ROWS: '50',
    BENCH_SESSION_RUNS: '1000',
    BENCH_ENTRIES: '10200',
    BENCH_SEQUENTIAL: '3',
    BENCH_TRIES: '2',
    BENCH_LOG_LEVEL: 'warn',
    LIVE_BENCH_FAN_OUT: '50',
    LIVE_BENCH_IDLE: '100',
    LIVE_BENCH_CREATES: '5',
    LIVE_BENCH_LATENCY_SOCKETS: '100',
  };
  const benchParts: [part: string, prints: RegExp[]][] = [
    [
      'clients',
      [
        /\| load \| requests\/s \| p50 ms \| p99 ms \| errors \|/,
        /create → event on 100 sockets, quiet server \(500 samples\)/,
        /\| statement page: GET \/s\/<token> \(75 entries, UPI QR, no sign-in\) \|/,
        /statement page p99 \/ list p99: [\d.]+ \(target ≤ 1\)/,
        /statement page on the wire \(body \+ headers\): uncompressed [\d,]+ \+ \d+ B, gzip [\d,]+ \+ \d+ B, br [\d,]+ \+ \d+ B/,
        /list as a member of a shared book \/ as the owner in their own book: [\d.]+ \(target ≥ 0\.9\)/,
        /create as a member of a shared book \/ as the owner in their own book: [\d.]+ \(target ≥ 0\.9\)/,
        /session statement with the book's membership \/ without: [\d.]+ /,
      ],
    ],
    [
      'scale-out',
      postgresUrl
        ? [/create on instance A → event on 10 sockets of instance B/]
        : [/skipped: nothing answers/],
    ],
    [
      'ledger',
      [
        /payments \/ creates \(throughput\)/,
        /GET \/api\/ageing p99 at 10 connections: [\d.]+ ms \(target ≤ 50 ms\); computed afresh \(after a write, 1 connection\): p50 [\d.]+ ms, p99 [\d.]+ ms/,
        /payments settling unpaid amounts \/ payments with none to settle \(throughput\): [\d.]+ \(target ≥ 0\.8/,
        /the counted runs in order: none \d+, settle \d+, settle \d+, none \d+, none \d+, settle \d+, settle \d+, none \d+ req\/s/,
        ...(hasCommit(BEFORE_ISSUE_21)
          ? [
              /payments settling unpaid amounts \/ payments on the build before issue 21 \(throughput\): [\d.]+ \(target ≥ 0\.8/,
              /the counted runs in order: before \d+, settle \d+, settle \d+, before \d+, before \d+, settle \d+, settle \d+, before \d+ req\/s/,
            ]
          : [/payments on the build before issue 21: not measured \(commit \w+ is not in this/]),
        /after the payments, every unpaid amount still adds up: yes/,
      ],
    ],
    ['live', [/idle live sockets/]],
    [
      'sign-in-timing',
      [
        /SQLite: 2 failed sign-ins of each kind/,
        ...(postgresUrl ? [/PostgreSQL: 2 failed sign-ins of each kind/] : []),
      ],
    ],
  ];
  test.for(benchParts)(
    'npm run bench (BENCH_ONLY=%s) runs to the end and prints its tables, without an error',
    async ([part, prints]) => {
      const output = await runsGreen('bench', [], { ...benchEnv, BENCH_ONLY: part }, 4 * MINUTES);
      for (const printed of prints) expect(output).toMatch(printed);
      const errors = tableColumn(output, 'errors');
      expect(errors.filter((cell) => cell !== '0')).toEqual([]);
    },
  );

  test('npm run bench refuses a part it does not have, and runs nothing', async () => {
    const run = await runNpmScript('bench', [], { BENCH_ONLY: 'nothing' }, MINUTES);
    expect(run.code).toBe(1);
    expect(run.output).toContain('BENCH_ONLY: no part named nothing');
    expect(run.output).not.toContain('###');
  });

  test('npm run load holds mixed load and live sockets, and finds stored equal to acknowledged', async () => {
    const output = await runsGreen('load', [], {
      LOAD_SECONDS: '2',
      LOAD_CONNECTIONS: '8',
      LOAD_SOCKETS: '20',
    });
    expect(output).toMatch(/\nOK\n?$/);
  });

  const noChromium = !existsSync(chromium);
  if (noChromium) {
    const why = `no Chromium at ${chromium} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
    if (inCi) throw new Error(`npm run bench:web cannot run under CI: ${why}`);
    console.warn(`Skipping npm run bench:web: ${why}`);
  }
  test.skipIf(noChromium)(
    'npm run bench:web measures the dashboard in Chromium and prints its table',
    async () => {
      const output = await runsGreen('bench:web', [], { BENCH_CLIENTS: '200', BENCH_TRIES: '1' });
      expect(output).toContain('| measure | conditions | p50 ms | p95 ms |');
      expect(output).toMatch(/\| header click to re-sorted rows \| slow phone \| \d+ \| \d+ \|/);
    },
  );
});

describe.concurrent('the scripts run from source', () => {
  test('npm run fuzz sends hostile requests and finds no problem', async () => {
    const output = await runsGreen('fuzz', [], { FUZZ_REQUESTS: '300', FUZZ_SEED: '2026' });
    expect(output).toMatch(/fuzz: 300 requests/);
  });

  test('npm run crash kills the server mid-burst and finds every acknowledged write', async () => {
    const output = await runsGreen('crash', [], {
      ...postgresEnv,
      CRASH_CYCLES: '1',
      // PostgreSQL crashed under the server: src/server/db/crash.test.ts, on PostgreSQL.
      CRASH_POSTGRES_CRASHES: '0',
    });
    expect(output).toContain('Every acknowledged write survived; nothing half there.');
    expect(output).toMatch(/SQLite: 1 cycles/);
    if (postgresUrl) expect(output).toMatch(/PostgreSQL: 1 cycles, server SIGKILLed/);
  });

  describe('on a panel with an operator in it', () => {
    let t: TestApp;
    let file = '';
    let operator = '';
    beforeAll(async () => {
      t = await startTestApp();
      file = t.config.database.kind === 'sqlite' ? t.config.database.path : '';
      // The operator has two-factor sign-in on, for the command that turns it off.
      operator = uniqueEmail('two-factor');
      const { cookie } = await signUp(t.app, operator);
      const post = (url: string, payload: object) =>
        t.app.inject({ method: 'POST', url, headers: { cookie }, payload });
      const setup = await post('/api/account/two-factor/setup', {
        currentPassword: GOOD_PASSWORD,
      });
      const confirmed = await post('/api/account/two-factor/confirm', {
        code: authenticatorCode(setup.json().secret, -1),
      });
      expect(confirmed.json()).toMatchObject({ enabled: true });
    });
    afterAll(() => t.close());

    const commandEnv = () => ({
      DATABASE_URL: file,
      AUTH_SECRET: t.config.authSecret,
      PUBLIC_URL: t.config.publicUrl,
    });

    test('npm run backup -- FILE copies the database, operators and all', async () => {
      const copy = path.join(dir, 'backup.db');
      await runsGreen('backup', [copy], commandEnv());
      const backup = new SqliteDatabase(copy, { readonly: true });
      try {
        const emails = backup.prepare('SELECT email FROM user').pluck().all();
        expect(emails).toEqual(expect.arrayContaining([t.admin.email, operator]));
      } finally {
        backup.close();
      }
    });

    test('npm run reset-link -- EMAIL prints a one-time link to choose a new password', async () => {
      const output = await runsGreen('reset-link', [t.admin.email], commandEnv());
      expect(output).toContain(`${t.config.publicUrl}/reset-password#token=`);
    });

    test("npm run two-factor-off -- EMAIL turns off that operator's two-factor sign-in", async () => {
      const signIn = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          payload: { email: operator, password: GOOD_PASSWORD },
        });
      expect((await signIn()).json()).toEqual({ secondFactorRequired: true });
      const output = await runsGreen('two-factor-off', [operator], commandEnv());
      expect(output).toContain(`Two-factor sign-in is off for ${operator}`);
      expect((await signIn()).json()).toHaveProperty('user');
    });
  });
});
