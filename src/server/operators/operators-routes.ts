import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { apiErrorSchema } from '../../shared/api-error.ts';
import {
  LAST_ADMINISTRATOR_MESSAGE,
  operatorListSchema,
  operatorSchema,
  roleChangeSchema,
} from '../../shared/operator-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { requireSession, type SessionReader } from '../auth/session.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { EventBus } from '../live/event-bus.ts';
import { changeRole, listOperators } from './operators-repository.ts';

interface OperatorsRoutesOptions {
  database: Database;
  readSession: SessionReader;
  bus: EventBus;
}

const errors = { '4xx': apiErrorSchema };

/** Who may change the panel: administrators see every operator and grant or remove the role. */
export async function registerOperatorsRoutes(
  app: FastifyInstance,
  { database, readSession, bus }: OperatorsRoutesOptions,
): Promise<void> {
  await app.register(async (scope) => {
    requireSession(scope, readSession, { administrator: true });
    const routes = scope.withTypeProvider<ZodTypeProvider>();

    routes.get(
      apiPaths.operators,
      {
        schema: {
          tags: ['Operators'],
          summary: 'List the operators (administrator)',
          response: { 200: operatorListSchema, ...errors },
        },
      },
      async () => ({ items: await listOperators(database.db) }),
    );

    routes.put(
      '/api/operators/:id/role',
      {
        schema: {
          tags: ['Operators'],
          summary: "Change an operator's role (administrator)",
          params: z.object({ id: z.string() }),
          body: roleChangeSchema,
          response: { 200: operatorSchema, ...errors },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { role } = request.body;
        const outcome = await database.write(async (trx, write) => {
          const result = await changeRole(trx, id, role);
          if (result.kind === 'changed') {
            const event = { type: 'operator.updated' as const, operator: result.operator };
            await bus.publish({ kind: 'event', ownerId: id, event }, write);
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'Operator not found');
        if (outcome.kind === 'last-administrator') {
          throw new HttpError(409, LAST_ADMINISTRATOR_MESSAGE);
        }
        return outcome.operator;
      },
    );
  });
}
