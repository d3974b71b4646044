// npm run bench: builds when the build is missing or stale (so that no figure comes from an old
// build), then runs the benchmarks in bench/ one after another against the compiled server
// (or only the parts BENCH_ONLY names).
import { spawnSync } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const PARTS = {
  clients: 'bench/clients-bench.ts',
  'scale-out': 'bench/scale-out-bench.ts',
  ledger: 'bench/ledger-bench.ts',
  live: 'bench/live-bench.ts',
  'sign-in-timing': 'bench/sign-in-timing.ts',
};

// BENCH_ONLY=ledger,live runs just those parts (each on ports of its own, so that the test of
// this script can run the parts side by side); every part otherwise.
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !(name in PARTS)) ?? [];
if (unknown.length > 0) {
  console.error(
    `BENCH_ONLY: no part named ${unknown.join(', ')} (parts: ${Object.keys(PARTS).join(', ')})`,
  );
  process.exit(1);
}

buildIfStale();
for (const [name, file] of Object.entries(PARTS)) {
  if (only && !only.includes(name)) continue;
  console.log(`\n### ${file}\n`);
  run(process.execPath, ['--import', 'tsx', file]);
}
