// npm run bench: builds when the build is missing or stale (so that no figure comes from an old
// build), then runs the benchmarks in bench/ one after another against the compiled server.
import { spawnSync } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

buildIfStale();
for (const file of [
  'bench/clients-bench.ts',
  'bench/scale-out-bench.ts',
  'bench/ledger-bench.ts',
  'bench/live-bench.ts',
  'bench/sign-in-timing.ts',
]) {
  console.log(`\n### ${file}\n`);
  run(process.execPath, ['--import', 'tsx', file]);
}
