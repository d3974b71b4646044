// Two builds of the server side by side, for a change too small to show between two runs of
// `npm run bench` on a shared machine (docs/decisions/0034-list-as-fast-as-the-floor.md, fifth
// pass). Both start on one SQLite file seeded with BENCH_CLIENTS clients, are warmed up, then
// loaded in turns (A, B, B, A, …) for COMPARE_ROUNDS rounds of COMPARE_SLICE_S seconds each, and
// the figures are B's against A's: throughput, and server CPU a request (from /proc). The
// servers can be pinned to cores of their own (COMPARE_PIN=1: this process and its load then run
// on the others). Compare a build with itself first to see what the machine's noise is.
// Usage: `cp -r dist dist-before` (inside the project, so that it finds node_modules; git
// ignores it), change the code and `npm run build`, then
//   node --import tsx bench/compare-builds.ts dist-before/server/server/index.js \
//     dist/server/server/index.js [path?query]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { seedSqlite } from './seed-data.ts';
import { cpuMicros, signUpOperator, startServer, stop, waitForHealth } from './server-process.ts';

const [entryA, entryB, target = '/api/clients?limit=100'] = process.argv.slice(2);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 4);
const SLICE_S = Number(process.env.COMPARE_SLICE_S ?? 2);
const WARM_UP_S = Number(process.env.COMPARE_WARM_UP_S ?? 5);
const PORTS = { A: 3301, B: 3302 } as const;
type Build = keyof typeof PORTS;

async function main(): Promise<void> {
  if (!entryA || !entryB) throw new Error('usage: compare-builds.ts <entry A> <entry B> [path]');
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-compare-'));
  const file = path.join(dir, 'bench.db');
  // One after the other: the first runs the migrations on the new file.
  const servers = { A: startServer({ port: PORTS.A, databaseUrl: file, entry: entryA }) } as Record<
    Build,
    ReturnType<typeof startServer>
  >;
  try {
    await waitForHealth(`http://127.0.0.1:${PORTS.A}`);
    servers.B = startServer({ port: PORTS.B, databaseUrl: file, entry: entryB });
    await waitForHealth(`http://127.0.0.1:${PORTS.B}`);
    const { cookie, userId } = await signUpOperator(
      `http://127.0.0.1:${PORTS.A}`,
      `http://localhost:${PORTS.A}`,
      'bench@example.com',
    );
    seedSqlite(file, userId, CLIENTS);
    if (process.env.COMPARE_PIN === '1') {
      // The servers' threads on the last core, this process and its load on the others.
      const last = availableParallelism() - 1;
      for (const server of Object.values(servers)) {
        execFileSync('taskset', ['-a', '-p', '-c', String(last), String(server.pid)]);
      }
      execFileSync('taskset', [
        '-a',
        '-p',
        '-c',
        `0-${Math.max(0, last - 1)}`,
        String(process.pid),
      ]);
    }
    const url = (build: Build) => `http://127.0.0.1:${PORTS[build]}${target}`;
    const load = (build: Build, duration: number) =>
      autocannon({ url: url(build), headers: { cookie }, connections: 10, duration });
    for (const build of ['A', 'B'] as const) {
      const answer = await fetch(url(build), { headers: { cookie } });
      if (answer.status !== 200) throw new Error(`${build} answered ${answer.status}`);
      await load(build, WARM_UP_S);
    }
    const totals = { A: { requests: 0, cpu: 0 }, B: { requests: 0, cpu: 0 } };
    const order: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const build of (round % 2 ? ['B', 'A'] : ['A', 'B']) as Build[]) {
        const pid = servers[build].pid ?? 0;
        const before = cpuMicros(pid);
        const result = await load(build, SLICE_S);
        totals[build].cpu += cpuMicros(pid) - before;
        totals[build].requests += result.requests.total;
        order.push(`${build} ${result.requests.average.toFixed(0)}`);
      }
    }
    const perRequest = (build: Build) => totals[build].cpu / Math.max(1, totals[build].requests);
    console.log(`${target}, ${ROUNDS} rounds of ${SLICE_S} s: ${order.join(', ')} req/s`);
    console.log(
      `B / A throughput ${(totals.B.requests / Math.max(1, totals.A.requests)).toFixed(3)}; server CPU a request A ${perRequest('A').toFixed(0)} µs, B ${perRequest('B').toFixed(0)} µs (A / B ${(perRequest('A') / perRequest('B')).toFixed(3)})`,
    );
  } finally {
    await Promise.all(Object.values(servers).map((server) => stop(server)));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
