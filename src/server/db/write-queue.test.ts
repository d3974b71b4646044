import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from './database.ts';

const database = openDatabase({
  kind: 'sqlite',
  path: path.join(mkdtempSync(path.join(tmpdir(), 'write-queue-')), 'q.db'),
});
afterAll(() => database.close());

test('concurrent writes share a commit; a failing write is undone alone', async () => {
  await sql`CREATE TABLE items (name TEXT PRIMARY KEY)`.execute(database.db);
  const insert = (name: string) =>
    database.write(async (trx) => {
      await sql`INSERT INTO items (name) VALUES (${name})`.execute(trx);
      if (name === 'bad') throw new Error('refused after writing');
      return name;
    });
  const results = await Promise.allSettled([insert('a'), insert('bad'), insert('b'), insert('a')]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
  const rows = await sql<{ name: string }>`SELECT name FROM items ORDER BY name`.execute(
    database.db,
  );
  expect(rows.rows.map((r) => r.name)).toEqual(['a', 'b']);
});

test('writes after a batch are committed too', async () => {
  const many = await Promise.all(
    Array.from({ length: 150 }, (_, i) =>
      database.write(async (trx) => {
        await sql`INSERT INTO items (name) VALUES (${`n${i}`})`.execute(trx);
        return i;
      }),
    ),
  );
  expect(many).toHaveLength(150);
  const count = await sql<{ n: number }>`SELECT count(*) AS n FROM items`.execute(database.db);
  expect(Number(count.rows[0]?.n)).toBe(152);
});
