// Runs the Playwright suite against a fresh build in Debian's Chromium.
// Outside CI a missing Chromium skips the suite with a reason; under CI=true it fails.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { inCi } from './in-ci.mjs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (!existsSync(chromium)) {
  const how =
    'Install it with: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH).';
  if (inCi) {
    console.error(`End-to-end tests cannot run: no Chromium at ${chromium}. ${how}`);
    process.exit(1);
  }
  console.warn(`Skipping the end-to-end (browser) tests: no Chromium at ${chromium}. ${how}`);
  process.exit(0);
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The tests drive the production build: compiled server, built web app.
run('npm', ['run', '--silent', 'build']);
// The build must stay within its size budgets.
run(process.execPath, ['scripts/check-bundle-budget.mjs']);
run('npx', ['playwright', 'test', ...process.argv.slice(2)]);
