import { defineConfig } from '@playwright/test';
import { inCi } from './scripts/in-ci.mjs';

// No shared server: each worker starts a panel of its own (tests/e2e/fixtures.ts), so that
// the specs run in any order and in parallel.
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // Two: the machines that run this have two cores (npm run test:e2e -- --workers=1 for one).
  workers: 2,
  retries: 0,
  // Two workers, two panels and two browsers share two cores: the longest stories need more than 30 s.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  forbidOnly: Boolean(process.env.CI),
  use: {
    // A trace snapshots the page at every action, whether the test fails or not: about a quarter
    // of the suite's CPU (decision 0041). CI keeps no files of a run, so it records none; to
    // trace a failing test, run it again outside CI.
    trace: inCi ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
