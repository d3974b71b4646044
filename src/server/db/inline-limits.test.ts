import { describe, expect, test } from 'vitest';
import { inlineLimits, limitedSource } from './inline-limits.ts';

function inline(sql: string, parameters: readonly unknown[]) {
  return inlineLimits(limitedSource(sql), sql, parameters);
}

describe("a LIMIT's integer is written into the statement", () => {
  test('the LIMIT parameter goes into the text; OFFSET and the others stay bound', () => {
    expect(
      inline('SELECT * FROM t WHERE a = ? ORDER BY b LIMIT ? OFFSET ?', ['x', 100, 200]),
    ).toEqual({
      sql: 'SELECT * FROM t WHERE a = ? ORDER BY b LIMIT 100 OFFSET ?',
      parameters: ['x', 200],
    });
  });

  test('every LIMIT of the statement, in any case, subqueries included', () => {
    expect(
      inline('select id from (select id from t where a = ? limit ?) where b = ? LiMiT\n  ?', [
        1,
        5n,
        2,
        7,
      ]),
    ).toEqual({
      sql: 'select id from (select id from t where a = ? limit 5) where b = ? LiMiT\n  7',
      parameters: [1, 2],
    });
  });

  test('question marks and the word LIMIT in quotes or comments are not parameters', () => {
    const sql = `SELECT '?', "limit ?", [limit ?] -- limit ?\n /* LIMIT ? */ FROM t WHERE a = ? LIMIT ?`;
    expect(limitedSource(sql).positions).toEqual([1]);
    expect(inline(sql, ['a', 3]).sql).toBe(
      `SELECT '?', "limit ?", [limit ?] -- limit ?\n /* LIMIT ? */ FROM t WHERE a = ? LIMIT 3`,
    );
  });

  test('a limit that is not a safe integer stays bound, for SQLite to refuse or convert', () => {
    for (const value of [2.5, '10', null, 2 ** 53, 2n ** 60n]) {
      const sql = 'SELECT * FROM t LIMIT ?';
      expect(inline(sql, [value])).toEqual({ sql, parameters: [value] });
    }
  });

  test('a statement with numbered or named parameters is left as it is', () => {
    for (const sql of [
      'SELECT ?1 LIMIT ?',
      'SELECT :a LIMIT ?',
      'SELECT $a LIMIT ?',
      'SELECT @a LIMIT ?',
    ]) {
      expect(inline(sql, [1, 2])).toEqual({ sql, parameters: [1, 2] });
    }
  });

  test('a statement without a LIMIT parameter is left as it is', () => {
    for (const sql of [
      'SELECT 1',
      'SELECT * FROM t LIMIT 5 OFFSET ?',
      'SELECT * FROM t LIMIT (?)',
    ]) {
      expect(inline(sql, [1])).toEqual({ sql, parameters: [1] });
    }
  });
});
