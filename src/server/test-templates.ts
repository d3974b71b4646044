// Global setup of the server projects (vitest.config.ts): migrates one template database per
// run, on the project's dialect, which startTestApp and startTwoInstances copy for each test
// app instead of migrating from empty (docs/decisions/0041-faster-test-runs.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createAuth } from './auth/auth.ts';
import type { DatabaseConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { createScratchDatabase, TEMPLATE_ENV, testConfig } from './test-support.ts';

async function migrated(database: DatabaseConfig): Promise<void> {
  const config = testConfig({ database });
  const opened = openDatabase(config.database);
  try {
    await migrate(createAuth(config, opened), opened, { timeZone: config.timeZone });
  } finally {
    await opened.close();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}

export async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const dialect = project.config.env?.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
  // A dialect's two projects (shared and isolated modules) share one template.
  if (process.env[TEMPLATE_ENV[dialect]]) return undefined;
  if (dialect === 'postgres') {
    const scratch = await createScratchDatabase(undefined, { prefix: 'client_panel_template' });
    await migrated({ kind: 'postgres', url: scratch.url, poolSize: 3 });
    process.env[TEMPLATE_ENV.postgres] = new URL(scratch.url).pathname.slice(1);
    return async () => {
      delete process.env[TEMPLATE_ENV.postgres];
      await scratch.drop();
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'client-panel-template-'));
  const template = path.join(dir, 'template.db');
  // Closed, so checkpointed: the file alone is the whole database.
  await migrated({ kind: 'sqlite', path: template });
  process.env[TEMPLATE_ENV.sqlite] = template;
  return async () => {
    delete process.env[TEMPLATE_ENV.sqlite];
    rmSync(dir, { recursive: true, force: true });
  };
}
