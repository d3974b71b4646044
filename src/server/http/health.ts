import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { apiPaths } from '../../shared/paths.ts';
import { databaseAnswers } from '../db/availability.ts';
import type { Database } from '../db/database.ts';
import { PUBLIC_ROUTE } from './openapi.ts';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  db: z.enum(['sqlite', 'postgres']),
});

/** Healthy means the database answers a real query, not merely that the process is up. */
export function registerHealthRoute(app: FastifyInstance, database: Database): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    apiPaths.health,
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Health'],
        summary: 'Whether the server and its database answer',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      if (await databaseAnswers(database)) return { status: 'ok' as const, db: database.dialect };
      request.log.warn('health check: the database did not answer');
      return reply.status(503).send({ status: 'unavailable', db: database.dialect });
    },
  );
}
