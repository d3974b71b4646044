import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CLIENT_CONFLICT_MESSAGE,
  clientFieldsSchema,
  clientListQuerySchema,
  clientPatchSchema,
} from '../../shared/client-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { requireOperator, type SessionReader } from '../auth/session.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import type { EventBus } from '../live/event-bus.ts';
import { getSettings } from '../settings/settings-repository.ts';
import {
  createClient,
  deleteClient,
  getClient,
  listClients,
  updateClient,
} from './clients-repository.ts';

export const CLIENT_NOT_FOUND_MESSAGE = 'Client not found';

interface ClientsRoutesOptions {
  database: Database;
  readSession: SessionReader;
  bus: EventBus;
}

const idParams = z.object({ id: z.string().max(100) });

export async function registerClientsRoutes(
  app: FastifyInstance,
  { database, readSession, bus }: ClientsRoutesOptions,
): Promise<void> {
  await app.register(async (scope) => {
    const routes = scope.withTypeProvider<ZodTypeProvider>();
    // Every clients call needs a session; checked before the body is even validated.
    scope.addHook('preValidation', async (request) => {
      request.operatorId = (await requireOperator(readSession, request)).id;
    });

    routes.get('/api/clients', { schema: { querystring: clientListQuerySchema } }, (request) =>
      listClients(database, request.operatorId, request.query),
    );

    routes.post(
      '/api/clients',
      { schema: { body: clientFieldsSchema } },
      async (request, reply) => {
        const settings = await getSettings(database);
        const fields = settings.disableBalanceOnAdd
          ? { ...request.body, balance: formatAmount(0) }
          : request.body;
        const client = await createClient(database, request.operatorId, fields);
        await bus.publish({
          ownerId: request.operatorId,
          event: { type: 'client.created', client },
        });
        return reply.status(201).send(client);
      },
    );

    routes.get('/api/clients/:id', { schema: { params: idParams } }, async (request) => {
      const client = await getClient(database, request.operatorId, request.params.id);
      if (!client) throw new HttpError(404, CLIENT_NOT_FOUND_MESSAGE);
      return client;
    });

    routes.patch(
      '/api/clients/:id',
      { schema: { params: idParams, body: clientPatchSchema } },
      async (request) => {
        const { version: _version, ...fields } = request.body;
        if (Object.values(fields).every((value) => value === undefined)) {
          throw new HttpError(400, 'Send at least one field to change');
        }
        const outcome = await updateClient(
          database,
          request.operatorId,
          request.params.id,
          request.body,
        );
        if (outcome.kind === 'not-found') throw new HttpError(404, CLIENT_NOT_FOUND_MESSAGE);
        if (outcome.kind === 'conflict') {
          throw new HttpError(409, CLIENT_CONFLICT_MESSAGE, undefined, { client: outcome.current });
        }
        await bus.publish({
          ownerId: request.operatorId,
          event: { type: 'client.updated', client: outcome.client },
        });
        return outcome.client;
      },
    );

    routes.delete('/api/clients/:id', { schema: { params: idParams } }, async (request, reply) => {
      const deleted = await deleteClient(database, request.operatorId, request.params.id);
      if (!deleted) throw new HttpError(404, CLIENT_NOT_FOUND_MESSAGE);
      await bus.publish({
        ownerId: request.operatorId,
        event: { type: 'client.deleted', id: request.params.id },
      });
      return reply.status(204).send();
    });
  });
}
