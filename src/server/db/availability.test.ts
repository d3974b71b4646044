import { expect, test } from 'vitest';
import { isDatabaseUnavailable, isDiskFull } from './availability.ts';
import { DatabaseDeadlineExceeded } from './deadline.ts';

function failure(code: string, cause?: unknown): Error {
  return Object.assign(new Error(`failed with ${code}`), { code, cause });
}

test("a full disk is told apart from an unreachable database, by either database's codes", () => {
  expect(isDiskFull(failure('SQLITE_FULL'))).toBe(true);
  expect(isDiskFull(failure('ENOSPC'))).toBe(true);
  expect(isDiskFull(failure('53100'))).toBe(true); // PostgreSQL's disk_full
  expect(isDiskFull(new Error('wrapped', { cause: failure('SQLITE_FULL') }))).toBe(true);
  for (const other of ['SQLITE_CONSTRAINT', 'SQLITE_BUSY', 'ECONNREFUSED', '23505', '57P01']) {
    expect(isDiskFull(failure(other))).toBe(false);
  }
  expect(isDatabaseUnavailable(failure('SQLITE_FULL'))).toBe(false);
  expect(isDatabaseUnavailable(failure('53100'))).toBe(false);
});

test('a database that did not answer within the deadline counts as unavailable (a 503), however wrapped', () => {
  const late = new DatabaseDeadlineExceeded('no answer to a query in 4000 ms');
  expect(isDatabaseUnavailable(late)).toBe(true);
  expect(isDatabaseUnavailable(new Error('the transaction failed', { cause: late }))).toBe(true);
  expect(isDiskFull(late)).toBe(false);
});
