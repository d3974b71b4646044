import type { FastifyInstance } from 'fastify';
import type { DialectName } from '../db/database.ts';
import { REQUEST_DATABASE_BUDGET_MS, runUntil } from '../db/deadline.ts';

/**
 * Every request's database work ends by a deadline counted from its arrival: its queries and
 * its waits for a connection share one budget, so a database that stopped answering costs a
 * 503 within 5 s, not a wait per query. Entered before validation (after the body is read: its
 * parser's callbacks run outside the request's context). The session check runs before the
 * body is read, outside it: with no context a wait has the same budget from its start
 * (`databaseWaitMs`), and the check comes first, so the two end at about the same time.
 */
export function registerRequestDeadline(app: FastifyInstance, dialect: DialectName): void {
  // Only PostgreSQL's pool reads the budget: SQLite's statements never wait on a network, and
  // its one wait, for the write lock, is bounded by busy_timeout. There the context of every
  // request's promises would be carried for nothing.
  if (dialect !== 'postgres') return;
  app.addHook('preValidation', (_request, reply, done) => {
    runUntil(Date.now() - reply.elapsedTime + REQUEST_DATABASE_BUDGET_MS, done);
  });
}
