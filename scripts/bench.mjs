// npm run bench: runs the benchmarks in bench/ one after another.
import { spawnSync } from 'node:child_process';

const result = spawnSync(process.execPath, ['--import', 'tsx', 'bench/clients-bench.ts'], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
