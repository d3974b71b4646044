import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { expect, test } from 'vitest';
import { openDatabase } from './database.ts';

test('committed pages reach the database file without the app ever checkpointing', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'checkpoint-')), 'c.db');
  const database = openDatabase({ kind: 'sqlite', path: file });
  try {
    await sql`CREATE TABLE blobs (body TEXT)`.execute(database.db);
    const before = statSync(file).size;
    for (let i = 0; i < 200; i += 1) {
      await database.write((trx) =>
        sql`INSERT INTO blobs VALUES (${'x'.repeat(4000)})`.execute(trx),
      );
    }
    // The main connection has wal_autocheckpoint = 0, so only the worker can grow the file.
    await expect
      .poll(() => statSync(file).size, { timeout: 5000, interval: 100 })
      .toBeGreaterThan(before + 500_000);
  } finally {
    await database.close();
  }
});
