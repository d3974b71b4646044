import { sql } from 'kysely';
import { errorMessage } from '../../shared/error-messages.ts';
import type { Database } from './database.ts';
import { DATABASE_DEADLINE_CODE, HEALTH_DATABASE_BUDGET_MS, runWithin } from './deadline.ts';

export const DATABASE_UNAVAILABLE_MESSAGE = errorMessage('database-unavailable');

const DATABASE_UNAVAILABLE_CODE = 'CLIENT_PANEL_DATABASE_UNAVAILABLE';

/** A failure whose own error hides its cause (better-auth's), found to be the database's. */
export class DatabaseUnavailable extends Error {
  readonly code = DATABASE_UNAVAILABLE_CODE;
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUnavailable';
  }
}

// Socket errors, and PostgreSQL's connection-exception (08…), shutdown and start-up (57P0…)
// and too-many-connections (53300) codes: the database is away, not the request wrong.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  DATABASE_DEADLINE_CODE,
  DATABASE_UNAVAILABLE_CODE,
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error|timeout exceeded when trying to connect|Query read timeout|the database system is (starting up|shutting down|in recovery mode)|Cannot use a pool after calling end|database connection is not open/i;

/** Whether an error means the database could not be reached, rather than a bug or bad data. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, message, cause } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) {
      return true;
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    current = cause;
  }
  return false;
}

export const DISK_FULL_MESSAGE = errorMessage('disk-full');

// SQLite's SQLITE_FULL (the database or its write-ahead log could not grow), the system's
// ENOSPC and EDQUOT (a file written beside it), and PostgreSQL's disk_full (53100).
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT', '53100']);

/**
 * Whether an error means the disk under the database is full: the write was refused whole
 * (SQLite rolls the transaction back) and the same request will work once space is freed.
 */
export function isDiskFull(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
    current = cause;
  }
  return false;
}

/**
 * A real query, bounded in time (and by the request it runs in, if that has less left): does
 * the database answer now? On PostgreSQL, a connection whose query ran out of time is closed.
 */
export async function databaseAnswers(database: Database): Promise<boolean> {
  try {
    await runWithin(HEALTH_DATABASE_BUDGET_MS, () => sql`SELECT 1`.execute(database.db));
    return true;
  } catch {
    return false;
  }
}
