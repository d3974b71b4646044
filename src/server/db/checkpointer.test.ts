import { mkdtempSync, readFileSync, statSync } from 'node:fs';
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

/** How many times the WAL has started again from its beginning (its header's checkpoint sequence). */
function walRestarts(file: string): number {
  const header = readFileSync(`${file}-wal`).subarray(0, 16);
  return header.readUInt32BE(12);
}

test('under a steady stream of writes the WAL starts again instead of growing with every write', async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'checkpoint-')), 'c.db');
  // 256 frames of 4 KiB: 1 MiB, where the writes below are 12 MiB of pages; a checkpoint
  // every 20 ms, so that the test's second or so of writes sees many.
  const database = openDatabase(
    { kind: 'sqlite', path: file },
    { restartFrames: 256, intervalMs: 20 },
  );
  try {
    await sql`CREATE TABLE blobs (body TEXT)`.execute(database.db);
    const restartsBefore = walRestarts(file);
    // Ten at a time, so that each batch's commit is followed at once by the next batch.
    for (let round = 0; round < 300; round += 1) {
      await Promise.all(
        Array.from({ length: 10 }, () =>
          database.write((trx) => sql`INSERT INTO blobs VALUES (${'x'.repeat(4000)})`.execute(trx)),
        ),
      );
    }
    expect(walRestarts(file)).toBeGreaterThan(restartsBefore + 1);
    // Without the restarts, every page written stays in the file: 12 MB and more.
    expect(statSync(`${file}-wal`).size).toBeLessThan(6_000_000);
  } finally {
    await database.close();
  }
});
