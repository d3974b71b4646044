import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { sqliteConnection } from './sqlite-connection.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function twoHandles() {
  const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-connection-'));
  dirs.push(dir);
  const file = path.join(dir, 'test.db');
  const mine = new SqliteDatabase(file);
  const other = new SqliteDatabase(file);
  return {
    connection: sqliteConnection(mine),
    other,
    close: () => [mine, other].map((h) => h.close()),
  };
}

describe('rows read as arrays come out as objects of their columns', () => {
  test("another connection's schema change shows in a statement prepared before it", () => {
    const { connection, other, close } = twoHandles();
    other.exec('CREATE TABLE t (a INTEGER NOT NULL); INSERT INTO t (a) VALUES (1)');
    expect(connection.readRows('SELECT * FROM t', [])).toEqual([{ a: 1 }]);
    other.exec("ALTER TABLE t ADD COLUMN b TEXT; UPDATE t SET b = 'added'");
    expect(connection.readRows('SELECT * FROM t', [])).toEqual([{ a: 1, b: 'added' }]);
    close();
  });

  test('integers past 2^53 stay bigints, the rest are numbers, in every column', () => {
    const { connection, other, close } = twoHandles();
    const big = 2n ** 53n + 1n;
    other.exec(
      `CREATE TABLE n (x INTEGER, y INTEGER); INSERT INTO n VALUES (${big}, 5), (-${big}, NULL)`,
    );
    expect(connection.readRows('SELECT x, y FROM n ORDER BY x DESC', [])).toEqual([
      { x: big, y: 5 },
      { x: -big, y: null },
    ]);
    close();
  });

  test('a column named __proto__ is a key like any other, not the prototype', () => {
    const { connection, close } = twoHandles();
    const [row] = connection.readRows('SELECT 1 AS "__proto__", 2 AS after', []) as object[];
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(1);
    expect(row).toHaveProperty('after', 2);
    close();
  });
});

describe('a statement with LIMIT ? is planned once per limit, not on every run', () => {
  test('each limit is prepared once and reads what the bound statement reads', () => {
    const { connection, other, close } = twoHandles();
    other.exec(
      'CREATE TABLE r (x INTEGER NOT NULL); WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 50) INSERT INTO r SELECT x FROM s',
    );
    const sql = 'SELECT x FROM r WHERE x > ? ORDER BY x LIMIT ? OFFSET ?';
    const bound = other.prepare(sql).pluck();
    const spy = vi.spyOn(SqliteDatabase.prototype, 'prepare');
    for (const [after, limit, offset] of [
      [0, 10, 0],
      [5, 10, 20],
      [0, 3, 0],
      [0, 10, 40],
      [10, -1, 30],
      [0, 0, 0],
    ] as const) {
      const rows = connection.readRows(sql, [after, limit, offset]) as { x: number }[];
      expect(rows.map((row) => row.x)).toEqual(bound.all(after, limit, offset));
    }
    // A limit that is not an integer stays bound: SQLite converts or refuses it as before.
    const outcome = (read: () => unknown[]) => {
      try {
        return read();
      } catch (error) {
        return String(error);
      }
    };
    for (const limit of ['2', 2.5, 'many']) {
      expect(
        outcome(() => (connection.readRows(sql, [0, limit, 0]) as { x: number }[]).map((r) => r.x)),
      ).toEqual(outcome(() => bound.all(0, limit, 0)));
    }
    const prepared = spy.mock.calls.map((call) => String(call[0]));
    spy.mockRestore();
    // The statement as written once (for whether it reads), then each limit once.
    expect(prepared.sort()).toEqual(
      [sql, ...[-1, 0, 10, 3].map((limit) => sql.replace('LIMIT ?', `LIMIT ${limit}`))].sort(),
    );
    close();
  });
});
