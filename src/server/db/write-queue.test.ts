import { mkdtempSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { compiledQuery } from './compiled-queries.ts';
import { openDatabase } from './database.ts';
import { MAX_BATCH } from './write-queue.ts';

const database = openDatabase({
  kind: 'sqlite',
  path: path.join(mkdtempSync(path.join(tmpdir(), 'write-queue-')), 'q.db'),
});
afterAll(() => database.close());

function commits(): number {
  const count = database.commits();
  if (count === undefined) throw new Error('SQLite counts its commits');
  return count;
}

test('concurrent writes share one commit; a failing write is undone alone', async () => {
  await sql`CREATE TABLE items (name TEXT PRIMARY KEY)`.execute(database.db);
  const insert = (name: string) =>
    database.write(async (trx) => {
      await sql`INSERT INTO items (name) VALUES (${name})`.execute(trx);
      if (name === 'bad') throw new Error('refused after writing');
      return name;
    });
  const before = commits();
  const results = await Promise.allSettled([insert('a'), insert('bad'), insert('b'), insert('a')]);
  // Counted where the COMMIT statement runs: a transaction per write would make this 4.
  expect(commits() - before).toBe(1);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
  const rows = await sql<{ name: string }>`SELECT name FROM items ORDER BY name`.execute(
    database.db,
  );
  expect(rows.rows.map((r) => r.name)).toEqual(['a', 'b']);
});

test('writes that arrive together are committed in few batches, and all of them', async () => {
  const before = commits();
  const many = await Promise.all(
    Array.from({ length: 150 }, (_, i) =>
      database.write(async (trx) => {
        await sql`INSERT INTO items (name) VALUES (${`n${i}`})`.execute(trx);
        return i;
      }),
    ),
  );
  expect(many).toHaveLength(150);
  expect(commits() - before).toBe(Math.ceil(150 / MAX_BATCH));
  const count = await sql<{ n: number }>`SELECT count(*) AS n FROM items`.execute(database.db);
  expect(Number(count.rows[0]?.n)).toBe(152);
});

test('a write that waits for the previous commit is committed on its own', async () => {
  const before = commits();
  await database.write((trx) => sql`INSERT INTO items (name) VALUES ('solo1')`.execute(trx));
  await database.write((trx) => sql`INSERT INTO items (name) VALUES ('solo2')`.execute(trx));
  expect(commits() - before).toBe(2);
});

const addNumberQuery = compiledQuery(
  'test-add-number',
  (_db, p: { n: number }) =>
    sql<{ n: number }>`INSERT INTO numbers (n) VALUES (${p.n}) RETURNING n`,
);
const countNumbersQuery = compiledQuery(
  'test-count-numbers',
  (_db, _p: Record<string, never>) => sql<{ count: number }>`SELECT COUNT(*) AS count FROM numbers`,
);

test('compiled statements run in the write that gives them: seen by it, undone with it alone', async () => {
  await sql`CREATE TABLE numbers (n INTEGER PRIMARY KEY)`.execute(database.db);
  const add = (n: number, fail: boolean) =>
    database.write(async (trx) => {
      const [added] = await addNumberQuery(trx, { n });
      const [counted] = await countNumbersQuery(trx, {});
      if (fail) throw new Error('refused after writing');
      return { added: added?.n, counted: counted?.count };
    });
  const before = commits();
  const results = await Promise.allSettled([add(1, false), add(2, true), add(3, false)]);
  expect(commits() - before).toBe(1);
  expect(results).toEqual([
    { status: 'fulfilled', value: { added: 1, counted: 1 } },
    { status: 'rejected', reason: new Error('refused after writing') },
    // The failed write's row was undone before this write counted.
    { status: 'fulfilled', value: { added: 3, counted: 2 } },
  ]);
  const [after] = await countNumbersQuery(database.db, {});
  expect(after?.count).toBe(2);
});

/** SQLite's temporary files this process holds open (unlinked at once, so only /proc has them). */
function openTemporaryFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.includes('etilqs_') ? [target] : [];
    } catch {
      return []; // closed while listed (the listing's own descriptor, say)
    }
  });
}

test.skipIf(process.platform !== 'linux')(
  "a write's savepoint keeps the pages it changes in memory, not in a temporary file",
  async () => {
    await sql`CREATE TABLE wide (id INTEGER PRIMARY KEY, text TEXT NOT NULL)`.execute(database.db);
    await database.write(async (trx) => {
      for (let id = 0; id < 2_000; id += 1) {
        await sql`INSERT INTO wide (id, text) VALUES (${id}, ${'x'.repeat(200)})`.execute(trx);
      }
    });
    // Changing every row changes about a hundred pages that were there before the savepoint:
    // their first content, kept for ROLLBACK TO, is several times SQLite's 64 KiB in-memory limit.
    const held = await database.write(async (trx) => {
      await sql`UPDATE wide SET text = ${'y'.repeat(200)}`.execute(trx);
      return openTemporaryFiles();
    });
    expect(held).toEqual([]);
  },
);
