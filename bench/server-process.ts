// The compiled server (or another entry) as a process of its own, for benches whose figures must
// not include the load generator's work (bench/live-bench.ts, bench/load.ts,
// bench/sign-in-timing.ts); freePort and stop serve bench/fuzz.ts and scripts/crash-harness.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** `npm start`'s entry; a bench may name another build (an older one, to compare). */
export const SERVER_ENTRY = path.join('dist', 'server', 'server', 'index.js');

export const BENCH_AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-2026';
export const BENCH_PASSWORD = 'bench passphrase 2026';

export interface ServerOptions {
  port: number;
  databaseUrl: string;
  entry?: string;
  /**
   * More environment: limits raised for a bench whose every connection is from 127.0.0.1;
   * undefined leaves a variable to the server's default.
   */
  env?: Record<string, string | undefined>;
  /** Node flags before the entry (a preloaded probe, say). */
  nodeFlags?: string[];
  /** An IPC channel to the server process (for a probe inside it). */
  ipc?: boolean;
}

export function startServer(options: ServerOptions): ChildProcess {
  const origin = `http://localhost:${options.port}`;
  return spawn(process.execPath, [...(options.nodeFlags ?? []), options.entry ?? SERVER_ENTRY], {
    env: {
      ...process.env,
      PORT: String(options.port),
      DATABASE_URL: options.databaseUrl,
      PUBLIC_URL: origin,
      AUTH_SECRET: BENCH_AUTH_SECRET,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      LOG_FORMAT: 'json',
      // Every connection of a bench comes from one address: caps are for browsers.
      MAX_CONNECTIONS_PER_ADDRESS: '0',
      SIGN_UPS_PER_ADDRESS_PER_HOUR: '100000',
      ...options.env,
    },
    // BENCH_SERVER_LOG=file keeps the server's log lines, to see where the time went.
    stdio: [
      'ignore',
      process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, 'a') : 'ignore',
      'inherit',
      ...(options.ipc ? (['ipc'] as const) : []),
    ],
  });
}

export function waitForHealth(base: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const attempt = () => {
      fetch(`${base}/api/health`)
        .then((r) => (r.ok ? resolve() : retry()))
        .catch(retry);
    };
    const retry = () =>
      Date.now() - started > timeoutMs
        ? reject(new Error(`${base} never became healthy`))
        : setTimeout(attempt, 200);
    attempt();
  });
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port;
}

/**
 * Ports nothing listens on right now, all different: each is held until every one is known,
 * as the system may hand a port just let go of out again at once (CI: nginx was given the port
 * of the instance behind it).
 */
export function freePorts(count: 1): Promise<[number]>;
export function freePorts(count: 2): Promise<[number, number]>;
export function freePorts(count: 3): Promise<[number, number, number]>;
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  // Every listen settles before any server closes: one that failed leaves none listening.
  const listened = await Promise.allSettled(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => {
            const address = server.address();
            if (typeof address === 'object' && address) resolve(address.port);
            else reject(new Error('no port'));
          });
        }),
    ),
  );
  await Promise.all(
    servers.map(
      (server) =>
        new Promise((resolve) => (server.listening ? server.close(resolve) : resolve(undefined))),
    ),
  );
  return listened.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
}

export function stop(child: ChildProcess | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A process's resident memory now, from Linux's /proc. */
export function residentBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export interface BenchOperator {
  email: string;
  cookie: string;
  userId: string;
}

/** Signs up an operator over HTTP (the first on a fresh server is its administrator). */
export async function signUpOperator(
  base: string,
  origin: string,
  email: string,
): Promise<BenchOperator> {
  const response = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (!response.ok)
    throw new Error(`sign-up answered ${response.status}: ${await response.text()}`);
  const cookie = (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const userId = ((await response.json()) as { user: { id: string } }).user.id;
  return { email, cookie, userId };
}

/** A process's CPU time so far (user and system, all its threads), in microseconds (Linux). */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
