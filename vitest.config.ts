import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { browserModules } from './scripts/browser-modules-plugin.mjs';
import { catalogues } from './scripts/catalogue-plugin.mjs';
import { inCi } from './scripts/in-ci.mjs';

// How the unit suite is kept fast on two cores: docs/decisions/0041-faster-test-runs.md.

const serverTests = ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts'];
// One migrated database per run, which each test app copies instead of migrating from empty.
const serverSetup = ['src/server/test-templates.ts'];

/** The test files under `dir` that replace a module (vi.mock): they need modules of their own. */
function mockingTests(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join(dir, file).split(path.sep).join('/'))
    .filter((file) => /\bvi\.(do)?mock\(/.test(readFileSync(file, 'utf8')));
}
const ownModuleTests = [...mockingTests('src/server'), ...mockingTests('src/shared')];

/**
 * A server project as two: most files share their worker's modules (isolate: false, so that
 * Fastify, better-auth and the rest are imported once per worker, not once per file), and the
 * files that mock a module get modules of their own (`NAME-isolated`).
 */
function serverProjects(
  name: string,
  test: { include: string[]; exclude?: string[]; env?: Record<string, string> },
): TestProjectInlineConfiguration[] {
  const shared = { environment: 'node', globalSetup: serverSetup, env: test.env ?? {} } as const;
  const exclude = test.exclude ?? [];
  const isolated = ownModuleTests.filter((file) => !exclude.includes(file));
  return [
    {
      extends: true,
      test: {
        ...shared,
        name,
        include: test.include,
        exclude: [...exclude, ...isolated],
        isolate: false,
      },
    },
    { extends: true, test: { ...shared, name: `${name}-isolated`, include: isolated } },
  ];
}

/** The server suite again on PostgreSQL, when there is one to test on. */
function postgresProject(): TestProjectInlineConfiguration[] {
  if (!process.env.TEST_DATABASE_URL) {
    const why =
      'TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test), so the server suite runs on SQLite only.';
    if (inCi) throw new Error(`The PostgreSQL suite cannot run under CI: ${why}`);
    console.warn(`Skipping the server suite on PostgreSQL: ${why}`);
    return [];
  }
  return serverProjects('server-postgres', {
    include: ['src/server/**/*.test.ts'],
    // SQLite's own machinery, start-up and configuration: nothing PostgreSQL would change.
    exclude: [
      'src/server/db/checkpointer.test.ts',
      'src/server/db/write-queue.test.ts',
      'src/server/db/postgres.test.ts',
      'src/server/config.test.ts',
      'src/server/startup.test.ts',
      'src/server/index.test.ts',
      // Reads files only: the catalogues and the web app's source.
      'src/server/i18n/catalogues.test.ts',
    ],
    env: { TEST_DIALECT: 'postgres' },
  });
}

export default defineConfig({
  plugins: [react(), catalogues()],
  test: {
    // Vitest's default is one worker fewer than the cores: one on the two-core CI machine,
    // which left a core idle whenever a test waited on the disk, a socket or a child process.
    maxWorkers: availableParallelism(),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      ...serverProjects('server', { include: serverTests }),
      ...postgresProject(),
      {
        extends: true,
        // The npm scripts run as a person runs them (`npm run test:scripts`, after the build).
        test: {
          name: 'scripts',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
          // Each runs a whole command (a bench part, a crash test) at its smallest size; most of
          // their time is spent waiting on child processes, so several run at once.
          testTimeout: 300_000,
          maxConcurrency: 6,
          // One file at a time, as before the suite's two workers: each file already runs
          // several commands at once, which two files side by side would starve.
          fileParallelism: false,
        },
      },
      {
        extends: true,
        // The modules as the browser has them (the schemas' field messages as codes).
        plugins: [browserModules()],
        test: {
          name: 'web',
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./src/web/test-setup.ts'],
        },
      },
    ],
  },
});
