import react from '@vitejs/plugin-react';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { browserModules } from './scripts/browser-modules-plugin.mjs';
import { catalogues } from './scripts/catalogue-plugin.mjs';
import { inCi } from './scripts/in-ci.mjs';

const serverTests = ['src/server/**/*.test.ts', 'src/shared/**/*.test.ts'];

/** The server suite again on PostgreSQL, when there is one to test on. */
function postgresProject(): TestProjectInlineConfiguration[] {
  if (!process.env.TEST_DATABASE_URL) {
    const why =
      'TEST_DATABASE_URL is not set (e.g. postgres://postgres@127.0.0.1:5432/test), so the server suite runs on SQLite only.';
    if (inCi) throw new Error(`The PostgreSQL suite cannot run under CI: ${why}`);
    console.warn(`Skipping the server suite on PostgreSQL: ${why}`);
    return [];
  }
  return [
    {
      extends: true,
      test: {
        name: 'server-postgres',
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
        environment: 'node',
        env: { TEST_DIALECT: 'postgres' },
      },
    },
  ];
}

export default defineConfig({
  plugins: [react(), catalogues()],
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: { name: 'server', include: serverTests, environment: 'node' },
      },
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
