import { mkdtempSync, readdirSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Transaction } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { compiledQuery } from './compiled-queries.ts';
import { openDatabase } from './database.ts';
import type { DatabaseSchema } from './schema.ts';
import { createWriteQueue, MAX_BATCH } from './write-queue.ts';

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

test("a batch's COMMIT alone goes without its fsync: every other commit on the connection keeps FULL", async () => {
  const synchronous = async (reader: typeof database.db | Transaction<DatabaseSchema>) =>
    Number(
      (await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(reader)).rows[0]?.synchronous,
    );
  // 1 is NORMAL (the WAL is synced aside, on the thread pool), 2 is FULL.
  const inBatch = await database.write((trx) => synchronous(trx));
  expect(inBatch).toBe(1);
  expect(await synchronous(database.db)).toBe(2);
});

/** A queue whose batches are made durable when the test says so. */
function queueWithSyncs() {
  const syncs: { done(): void; fail(error: Error): void }[] = [];
  const write = createWriteQueue(database.db, {
    durable: () =>
      new Promise<void>((resolve, reject) => syncs.push({ done: resolve, fail: reject })),
  });
  return { write, syncs };
}

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries += 1) {
    if (tries > 500) throw new Error('never came true');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

test('a batch is answered once its sync is done, in commit order; the next batch is written meanwhile', async () => {
  await sql`CREATE TABLE synced (name TEXT PRIMARY KEY)`.execute(database.db);
  const { write, syncs } = queueWithSyncs();
  const answered: string[] = [];
  const insert = (name: string) =>
    write(async (trx) => {
      await sql`INSERT INTO synced (name) VALUES (${name})`.execute(trx);
      return name;
    }).then((name) => answered.push(name));
  const first = insert('first');
  await until(() => syncs.length === 1);
  // Committed, not yet synced: nobody is told.
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(answered).toEqual([]);
  // The next batch does not wait for that sync to be written.
  const second = insert('second');
  await until(() => syncs.length === 2);
  syncs[1]?.done();
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(answered).toEqual([]);
  syncs[0]?.done();
  await Promise.all([first, second]);
  expect(answered).toEqual(['first', 'second']);
});

test('a batch whose sync fails is refused with that error, and its after-commit actions never run', async () => {
  const { write, syncs } = queueWithSyncs();
  let published = false;
  const refused = write(async (trx, scope) => {
    await sql`INSERT INTO synced (name) VALUES ('unsynced')`.execute(trx);
    scope.afterCommit(() => {
      published = true;
    });
  });
  await until(() => syncs.length === 1);
  syncs[0]?.fail(new Error('EIO: i/o error, fdatasync'));
  await expect(refused).rejects.toThrow('EIO');
  expect(published).toBe(false);
});
