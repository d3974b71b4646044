// npm run bench, sign-in part (alone: node --import tsx bench/sign-in-timing.ts): does a failed
// sign-in take as long for an unknown e-mail as for a wrong password? Against the server run from
// its source (two paths of the same code are compared, and a build could be stale), on SQLite and
// then on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL; skipped with a line when none
// answers), it times BENCH_TRIES (50) of each, interleaved, after 10 of each to warm up. Each try
// comes from its own address (X-Forwarded-For behind TRUST_PROXY=1), so the default rate limits
// are all in play and none refuses. Prints median, p90 and the ratio of the medians (the goal:
// within 10%), the median of the per-pair ratios, and the machine's load, which such figures need
// beside them; fails only if an answer is not the 401 it must be.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createScratchDatabase } from '../src/server/test-support.ts';
import { BENCH_PASSWORD, percentile, startServer, stop, waitForHealth } from './server-process.ts';

const TRIES = Number(process.env.BENCH_TRIES ?? 50);
const WARM_UP = Math.min(10, TRIES);
const PORTS = { sqlite: 3316, postgres: 3317 };
const PG_BASE =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const NODE_FLAGS = ['--import', 'tsx'];
const ENTRY = path.join('src', 'server', 'index.ts');
const ACCOUNT = { email: 'timing@example.com', password: BENCH_PASSWORD };
const UNKNOWN = 'nobody-here@example.com';
const WRONG = 'not the password at all';

let addressCounter = 0;
/** A fresh address per try: 10.x.y.z, as the proxy in front would report it. */
function nextAddress(): string {
  addressCounter += 1;
  const n = addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

async function post(base: string, url: string, body: unknown): Promise<number> {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: {
      origin: base.replace('127.0.0.1', 'localhost'),
      'content-type': 'application/json',
      'x-forwarded-for': nextAddress(),
    },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

async function timedSignIn(base: string, email: string): Promise<number> {
  const started = performance.now();
  const status = await post(base, '/api/auth/sign-in/email', { email, password: WRONG });
  const elapsed = performance.now() - started;
  if (status !== 401) throw new Error(`sign-in as ${email} answered ${status}, not 401`);
  return elapsed;
}

interface Figures {
  median: number;
  p90: number;
}

function figuresOf(times: number[]): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: percentile(sorted, 50), p90: percentile(sorted, 90) };
}

async function measure(name: string, port: number, databaseUrl: string): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  const server = startServer({
    port,
    databaseUrl,
    nodeFlags: NODE_FLAGS,
    entry: ENTRY,
    env: {
      TRUST_PROXY: '1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      // The server's own caps, not a bench's raised ones: the default limits are in play.
      MAX_CONNECTIONS_PER_ADDRESS: process.env.MAX_CONNECTIONS_PER_ADDRESS,
      SIGN_UPS_PER_ADDRESS_PER_HOUR: process.env.SIGN_UPS_PER_ADDRESS_PER_HOUR,
    },
  });
  try {
    await waitForHealth(base);
    const signedUp = await post(base, '/api/auth/sign-up/email', ACCOUNT);
    if (signedUp !== 200) throw new Error(`sign-up answered ${signedUp}`);
    for (let i = 0; i < WARM_UP; i += 1) {
      await timedSignIn(base, UNKNOWN);
      await timedSignIn(base, ACCOUNT.email);
    }
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < TRIES; i += 1) {
      // Alternate which goes first, so that neither always follows the other.
      if (i % 2 === 0) {
        unknown.push(await timedSignIn(base, UNKNOWN));
        wrong.push(await timedSignIn(base, ACCOUNT.email));
      } else {
        wrong.push(await timedSignIn(base, ACCOUNT.email));
        unknown.push(await timedSignIn(base, UNKNOWN));
      }
    }
    const u = figuresOf(unknown);
    const w = figuresOf(wrong);
    const ratio = u.median / w.median;
    const row = (label: string, f: Figures) =>
      `  ${label.padEnd(16)} median ${f.median.toFixed(2).padStart(7)} ms   p90 ${f.p90.toFixed(2).padStart(7)} ms`;
    console.log(`${name}: ${TRIES} failed sign-ins of each kind, interleaved`);
    console.log(row('unknown e-mail', u));
    console.log(row('wrong password', w));
    // Each unknown try beside the wrong one timed next to it: load that comes and goes on a
    // shared machine moves both alike, and drops out of their ratio.
    const paired = figuresOf(unknown.map((time, i) => time / (wrong[i] ?? Number.NaN))).median;
    console.log(
      `  ratio of medians (unknown / wrong) ${ratio.toFixed(3)}: ${
        Math.abs(ratio - 1) <= 0.1 ? 'within' : 'NOT within'
      } 10%; median of the ${TRIES} paired ratios ${paired.toFixed(3)}`,
    );
    console.log(`  load average while measuring: ${loadavg()[0]?.toFixed(2)} (1 min)`);
  } finally {
    await stop(server);
  }
}

console.log(`server: node ${[...NODE_FLAGS, ENTRY].join(' ')}`);
const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-timing-'));
try {
  await measure('SQLite', PORTS.sqlite, path.join(dir, 'timing.db'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const scratch = await createScratchDatabase(PG_BASE, {
  prefix: 'client_panel_timing',
  connectionTimeoutMillis: 3_000,
}).catch((error: Error) => {
  console.log(`PostgreSQL: skipped, nothing answers at ${PG_BASE} (${error.message})`);
  return null;
});
if (scratch) {
  try {
    await measure('PostgreSQL', PORTS.postgres, scratch.url);
  } finally {
    await scratch.drop();
  }
}
