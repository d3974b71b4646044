import type { FastifyInstance } from 'fastify';
import { REQUEST_DATABASE_BUDGET_MS, runUntil } from '../db/deadline.ts';

/**
 * Every request's database work ends by a deadline counted from its arrival: its session
 * read, its queries and its waits for a connection share one budget, so a database that
 * stopped answering costs a 503 within 5 s, not a wait per query. Entered before validation
 * (after the body is read: its parser's callbacks run outside the request's context) and
 * before any route's own hooks, so the session check runs inside it.
 */
export function registerRequestDeadline(app: FastifyInstance): void {
  app.addHook('preValidation', (_request, reply, done) => {
    runUntil(Date.now() - reply.elapsedTime + REQUEST_DATABASE_BUDGET_MS, done);
  });
}
