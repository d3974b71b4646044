import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What one interactive request may spend waiting for PostgreSQL, in all (connection, session
 * read, its queries): with the database silently gone it answers 503 within 5 s, this plus
 * the time to answer (docs/decisions/0029-database-deadlines.md). Also each query's limit
 * outside any request (background work: a live socket's session check, the bus's reads).
 */
export const REQUEST_DATABASE_BUDGET_MS = 4_000;

/** `/api/health` answers within 2 s, even inside a request that has more time left. */
export const HEALTH_DATABASE_BUDGET_MS = 1_500;

/** Each query of long work (export, import, migrations): its own limit, not a total. */
export const LONG_WORK_QUERY_LIMIT_MS = 60_000;

export const DATABASE_DEADLINE_CODE = 'CLIENT_PANEL_DATABASE_DEADLINE';

/** The database did not answer within the time the work had for it. */
export class DatabaseDeadlineExceeded extends Error {
  readonly code = DATABASE_DEADLINE_CODE;
  constructor(waitedFor: string, options?: ErrorOptions) {
    super(`The database did not answer in time (${waitedFor})`, options);
    this.name = 'DatabaseDeadlineExceeded';
  }
}

/** A deadline for everything the work does, or a limit for each query of it. */
type Budget = { until: number } | { perQueryMs: number };

const budgets = new AsyncLocalStorage<Budget>();

/** Runs `work` with a deadline at `until` (ms since the epoch), or the earlier one it is in. */
export function runUntil<T>(until: number, work: () => T): T {
  const outer = budgets.getStore();
  const earlier = outer && 'until' in outer ? Math.min(outer.until, until) : until;
  return budgets.run({ until: earlier }, work);
}

/** Runs `work` with `ms` from now for all it asks of the database (less if it is in less). */
export function runWithin<T>(ms: number, work: () => T): T {
  return runUntil(Date.now() + ms, work);
}

/**
 * Runs long work (an export, an import, migrations): each query has its own long limit, and
 * the request that started the work no longer bounds it.
 */
export function runAsLongWork<T>(work: () => T): T {
  return budgets.run({ perQueryMs: LONG_WORK_QUERY_LIMIT_MS }, work);
}

/** How long the next wait for the database (a connection, a query) may last; ≤ 0: none. */
export function databaseWaitMs(): number {
  const budget = budgets.getStore();
  if (!budget) return REQUEST_DATABASE_BUDGET_MS;
  return 'until' in budget ? budget.until - Date.now() : budget.perQueryMs;
}
