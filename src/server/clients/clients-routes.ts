import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { clientExportQuerySchema, exportFileName } from '../../shared/client-csv.ts';
import { clientFieldsSchema, clientPatchSchema } from '../../shared/client-fields-schema.ts';
import {
  BALANCE_LOCKED_MESSAGE,
  bulkDeletedSchema,
  bulkRestoredSchema,
  CLIENT_CONFLICT_MESSAGE,
  clientConflictSchema,
  clientIdsSchema,
  clientListQuerySchema,
  clientListSchema,
  clientSchema,
  NOT_RESTORABLE_MESSAGE,
} from '../../shared/client-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { apiPaths } from '../../shared/paths.ts';
import { requireSession, type SessionReader } from '../auth/session.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { streamCompression } from '../http/compression.ts';
import { HttpError } from '../http/errors.ts';
import { allowLongSilence } from '../http/long-work.ts';
import { dateIn } from '../ledger/panel-date.ts';
import type { EventBus } from '../live/event-bus.ts';
import { getSettings } from '../settings/settings-repository.ts';
import { clientsCsv } from './clients-export.ts';
import {
  type Author,
  deleteClient,
  deleteClients,
  getClient,
  insertClient,
  listClients,
  purgeDeletedClients,
  restoreClient,
  restoreClients,
  updateClient,
} from './clients-repository.ts';

export const CLIENT_NOT_FOUND_MESSAGE = 'Client not found';

interface ClientsRoutesOptions {
  config: Config;
  database: Database;
  readSession: SessionReader;
  bus: EventBus;
}

const idParams = z.object({ id: z.string() });
const errors = { '4xx': apiErrorSchema };

export async function registerClientsRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus }: ClientsRoutesOptions,
): Promise<void> {
  const authorOf = (request: FastifyRequest): Author => ({
    operator: { id: request.operator.id, email: request.operator.email },
    today: dateIn(config.timeZone),
  });
  await app.register(async (scope) => {
    requireSession(scope, readSession);
    const routes = scope.withTypeProvider<ZodTypeProvider>();

    routes.get(
      apiPaths.clients,
      {
        schema: {
          tags: ['Clients'],
          summary: 'List clients: search, filter, sort and page',
          querystring: clientListQuerySchema,
          response: { 200: clientListSchema, ...errors },
        },
      },
      (request) => listClients(database, request.operator.id, request.query),
    );

    routes.get(
      apiPaths.clientsExport,
      {
        compress: streamCompression,
        schema: {
          tags: ['Clients'],
          summary: 'Download the clients of a view as CSV',
          produces: ['text/csv'],
          querystring: clientExportQuerySchema,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        allowLongSilence(request);
        return (
          reply
            .type('text/csv; charset=utf-8')
            .header(
              'content-disposition',
              `attachment; filename="${exportFileName(dateIn(config.timeZone))}"`,
            )
            // A stream is sent as it is, never through the response serializer.
            .send(clientsCsv(database, request.operator.id, request.query) as unknown as string)
        );
      },
    );

    routes.post(
      apiPaths.clients,
      {
        schema: {
          tags: ['Clients'],
          summary: 'Add a client',
          body: clientFieldsSchema,
          response: { 201: clientSchema, ...errors },
        },
      },
      async (request, reply) => {
        const settings = await getSettings(database.db);
        const fields = settings.disableBalanceOnAdd
          ? { ...request.body, balance: formatAmount(0n) }
          : request.body;
        const ownerId = request.operator.id;
        const author = authorOf(request);
        const client = await database.write(async (trx, write) => {
          const created = await insertClient(trx, author, fields);
          const event = { type: 'client.created' as const, client: created };
          await bus.publish({ kind: 'event', ownerId, event }, write);
          return created;
        });
        return reply.status(201).send(client);
      },
    );

    routes.get(
      '/api/clients/:id',
      {
        schema: {
          tags: ['Clients'],
          summary: 'Read a client',
          params: idParams,
          response: { 200: clientSchema, ...errors },
        },
      },
      async (request) => {
        const client = await getClient(database, request.operator.id, request.params.id);
        if (!client) throw new HttpError(404, CLIENT_NOT_FOUND_MESSAGE);
        return client;
      },
    );

    routes.patch(
      '/api/clients/:id',
      {
        schema: {
          tags: ['Clients'],
          summary: 'Change a client (optimistic: send the version you read)',
          params: idParams,
          body: clientPatchSchema,
          response: { 200: clientSchema, 409: clientConflictSchema, ...errors },
        },
      },
      async (request) => {
        // The reason for a balance change goes with the balance: it changes nothing else.
        const { version: _version, balance, balanceNote: _note, ...others } = request.body;
        const changesOthers = Object.values(others).some((value) => value !== undefined);
        if (!changesOthers && balance === undefined) {
          throw new HttpError(400, 'Send at least one field to change');
        }
        // A balance sent with other fields is the edit form's, which the setting locks; a
        // balance alone is the details page's inline update, allowed whatever the setting.
        if (balance !== undefined && changesOthers) {
          const settings = await getSettings(database.db);
          if (settings.disableBalanceOnEdit) {
            throw new HttpError(400, BALANCE_LOCKED_MESSAGE, { balance: BALANCE_LOCKED_MESSAGE });
          }
        }
        const ownerId = request.operator.id;
        const { id } = request.params;
        const author = authorOf(request);
        const outcome = await database.write(async (trx, write) => {
          const result = await updateClient(trx, author, id, request.body);
          if (result.kind === 'updated') {
            const event = { type: 'client.updated' as const, client: result.client };
            await bus.publish({ kind: 'event', ownerId, event }, write);
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, CLIENT_NOT_FOUND_MESSAGE);
        if (outcome.kind === 'conflict') {
          throw new HttpError(409, CLIENT_CONFLICT_MESSAGE, undefined, { client: outcome.current });
        }
        return outcome.client;
      },
    );

    routes.delete(
      '/api/clients/:id',
      {
        schema: {
          tags: ['Clients'],
          summary: 'Delete a client (restorable for 10 minutes)',
          params: idParams,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        const ownerId = request.operator.id;
        const { id } = request.params;
        const author = authorOf(request);
        const deleted = await database.write(async (trx, write) => {
          await purgeDeletedClients(trx);
          const removed = await deleteClient(trx, author, id);
          if (removed) {
            await bus.publish(
              { kind: 'event', ownerId, event: { type: 'client.deleted', id } },
              write,
            );
          }
          return removed;
        });
        if (!deleted) throw new HttpError(404, CLIENT_NOT_FOUND_MESSAGE);
        return reply.status(204).send(null);
      },
    );

    routes.post(
      '/api/clients/:id/restore',
      {
        schema: {
          tags: ['Clients'],
          summary: 'Restore a deleted client',
          params: idParams,
          response: { 200: clientSchema, ...errors },
        },
      },
      async (request) => {
        const ownerId = request.operator.id;
        const author = authorOf(request);
        const restored = await database.write(async (trx, write) => {
          const client = await restoreClient(trx, author, request.params.id);
          if (client) {
            await bus.publish(
              { kind: 'event', ownerId, event: { type: 'client.created', client } },
              write,
            );
          }
          return client;
        });
        if (!restored) throw new HttpError(404, NOT_RESTORABLE_MESSAGE);
        return restored;
      },
    );

    routes.post(
      apiPaths.bulkDelete,
      {
        schema: {
          tags: ['Clients'],
          summary: 'Delete several clients at once',
          body: clientIdsSchema,
          response: { 200: bulkDeletedSchema, ...errors },
        },
      },
      async (request) => {
        const ownerId = request.operator.id;
        const author = authorOf(request);
        const deleted = await database.write(async (trx, write) => {
          await purgeDeletedClients(trx);
          const removed = await deleteClients(trx, author, request.body.ids);
          for (const id of removed) {
            await bus.publish(
              { kind: 'event', ownerId, event: { type: 'client.deleted', id } },
              write,
            );
          }
          return removed;
        });
        return { deleted };
      },
    );

    routes.post(
      apiPaths.bulkRestore,
      {
        schema: {
          tags: ['Clients'],
          summary: 'Restore several deleted clients at once',
          body: clientIdsSchema,
          response: { 200: bulkRestoredSchema, ...errors },
        },
      },
      async (request) => {
        const ownerId = request.operator.id;
        const author = authorOf(request);
        const restored = await database.write(async (trx, write) => {
          const back = await restoreClients(trx, author, request.body.ids);
          for (const client of back) {
            await bus.publish(
              { kind: 'event', ownerId, event: { type: 'client.created', client } },
              write,
            );
          }
          return back;
        });
        return { restored };
      },
    );
  });

  // Deleted clients go for good once they can no longer be restored, on every instance.
  const purge = setInterval(() => {
    database
      .write((trx) => purgeDeletedClients(trx))
      .catch((error: unknown) => {
        app.log.warn({ err: error }, 'could not remove expired deleted clients');
      });
  }, PURGE_INTERVAL_MS);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));
}

const PURGE_INTERVAL_MS = 60_000;
