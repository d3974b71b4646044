import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod/mini';
import { clientExportQuerySchema, exportFileName } from '../../shared/client-csv.ts';
import { clientFieldsSchema, clientPatchSchema } from '../../shared/client-fields-schema.ts';
import {
  bulkDeletedSchema,
  bulkRestoredSchema,
  type Client,
  clientConflictSchema,
  clientIdsSchema,
  clientListQuerySchema,
  clientListSchema,
  clientSchema,
} from '../../shared/client-schema.ts';
import { formatAmount } from '../../shared/money.ts';
import { apiPaths } from '../../shared/paths.ts';
import { bookOf, registerSignedIn } from '../auth/session.ts';
import { clientName } from '../books/activity-lines.ts';
import { type Activity, recordActivity } from '../books/activity-repository.ts';
import { memberOf } from '../books/book-member.ts';
import { idParams, type RouteParts, refusals } from '../http/api-routes.ts';
import { streamCompression } from '../http/compression.ts';
import { fieldRefusal, HttpError } from '../http/errors.ts';
import { allowLongSilence } from '../http/long-work.ts';
import { writtenAsIs } from '../http/written-as-is.ts';
import { dateIn } from '../ledger/panel-date.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { getSettings } from '../settings/settings-repository.ts';
import { deleteClients, restoreClients } from './clients-deletion.ts';
import { clientsCsv } from './clients-export.ts';
import { getClient, listClients } from './clients-read.ts';
import { type Author, insertClient, updateClient } from './clients-write.ts';

export async function registerClientsRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus }: RouteParts,
): Promise<void> {
  const authorOf = (request: FastifyRequest): Author => ({
    operator: memberOf(request),
    today: dateIn(config.timeZone),
  });

  /** Deletes the book's clients of these ids; each one's tabs learn it once it commits. */
  const deleteAndTell = (request: FastifyRequest, ids: readonly string[]) =>
    writeWithEvents(database, bus, async (trx, publish) => {
      const author = authorOf(request);
      const deleted = await deleteClients(trx, author, ids);
      for (const { id } of deleted) {
        const event = { type: 'client.deleted' as const, id };
        await publish({ kind: 'event', ownerId: author.operator.bookId, event });
      }
      await recordActivity(
        trx,
        author.operator,
        deleted.map((client) => ({
          action: 'client.deleted' as const,
          clientId: client.id,
          summary: `Deleted client ${clientName(client)}`,
        })),
      );
      return deleted.map(({ id }) => id);
    });

  /** Restores what it can of these ids; each one comes back on the tabs as a new client. */
  const restoreAndTell = (request: FastifyRequest, ids: readonly string[]) =>
    writeWithEvents(database, bus, async (trx, publish) => {
      const author = authorOf(request);
      const restored = await restoreClients(trx, author, ids);
      for (const client of restored) {
        const event = { type: 'client.created' as const, client };
        await publish({ kind: 'event', ownerId: author.operator.bookId, event });
      }
      await recordActivity(
        trx,
        author.operator,
        restored.map((client) => ({
          action: 'client.restored' as const,
          clientId: client.id,
          summary: `Restored client ${clientName(client)}`,
        })),
      );
      return restored;
    });

  await registerSignedIn(app, { readSession }, async (routes) => {
    routes.get(
      apiPaths.clients,
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Clients'],
          summary: 'List clients: search, filter, sort and page',
          querystring: clientListQuerySchema,
          response: { 200: clientListSchema, ...refusals },
        },
        // Checked by clients-list-answers.test.ts.
        serializerCompiler: writtenAsIs,
      },
      (request) =>
        listClients(database, bookOf(request).id, {
          ...request.query,
          today: dateIn(config.timeZone),
        }),
    );

    routes.get(
      apiPaths.clientsExport,
      {
        config: { bookAction: 'clients.export' },
        compress: streamCompression,
        schema: {
          tags: ['Clients'],
          summary: 'Download the clients of a view as CSV',
          produces: ['text/csv'],
          querystring: clientExportQuerySchema,
          response: { 200: z.string(), ...refusals },
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
            .send(
              clientsCsv(database, bookOf(request).id, {
                ...request.query,
                today: dateIn(config.timeZone),
              }) as unknown as string,
            )
        );
      },
    );

    routes.post(
      apiPaths.clients,
      {
        config: { bookAction: 'clients.add' },
        schema: {
          tags: ['Clients'],
          summary: 'Add a client',
          body: clientFieldsSchema,
          response: { 201: clientSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const settings = await getSettings(database);
        const fields = {
          ...request.body,
          ...(settings.disableBalanceOnAdd ? { balance: formatAmount(0n) } : {}),
          language: request.body.language ?? request.operator.language,
        };
        const client = await writeWithEvents(database, bus, async (trx, publish) => {
          const author = authorOf(request);
          const created = await insertClient(trx, author, fields);
          const event = { type: 'client.created' as const, client: created };
          await publish({ kind: 'event', ownerId: author.operator.bookId, event });
          await recordActivity(trx, author.operator, {
            action: 'client.created',
            clientId: created.id,
            summary: `Added client ${clientName(created)}`,
          });
          return created;
        });
        return reply.status(201).send(client);
      },
    );

    routes.get(
      '/api/clients/:id',
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Clients'],
          summary: 'Read a client',
          params: idParams,
          response: { 200: clientSchema, ...refusals },
        },
      },
      async (request) => {
        const client = await getClient(
          database,
          bookOf(request).id,
          request.params.id,
          dateIn(config.timeZone),
        );
        if (!client) throw new HttpError(404, 'client-not-found');
        return client;
      },
    );

    routes.patch(
      '/api/clients/:id',
      {
        config: { bookAction: 'clients.edit' },
        schema: {
          tags: ['Clients'],
          summary: 'Change a client (optimistic: send the version you read)',
          params: idParams,
          body: clientPatchSchema,
          response: { 200: clientSchema, 409: clientConflictSchema, ...refusals },
        },
      },
      async (request) => {
        // The reason for a balance change goes with the balance: it changes nothing else.
        const { version: _version, balance, balanceNote: _note, ...others } = request.body;
        const changesOthers = Object.values(others).some((value) => value !== undefined);
        if (!changesOthers && balance === undefined) {
          throw new HttpError(400, 'nothing-to-change');
        }
        // A balance sent with other fields is the edit form's, which the setting locks; a
        // balance alone is the details page's inline update, allowed whatever the setting.
        if (balance !== undefined && changesOthers) {
          const settings = await getSettings(database);
          if (settings.disableBalanceOnEdit) {
            throw fieldRefusal(400, 'balance-locked', 'balance');
          }
        }
        const outcome = await writeWithEvents(database, bus, async (trx, publish) => {
          const author = authorOf(request);
          const result = await updateClient(trx, author, request.params.id, request.body);
          if (result.kind === 'updated') {
            const event = { type: 'client.updated' as const, client: result.client };
            await publish({ kind: 'event', ownerId: author.operator.bookId, event });
            await recordActivity(
              trx,
              author.operator,
              clientChangeActivity(result.client, {
                balanceChanged: result.balanceChanged,
                changesOthers,
              }),
            );
          }
          return result;
        });
        if (outcome.kind === 'not-found') throw new HttpError(404, 'client-not-found');
        if (outcome.kind === 'conflict') {
          throw new HttpError(409, 'client-changed-elsewhere', {
            extra: { client: outcome.current },
          });
        }
        return outcome.client;
      },
    );

    routes.delete(
      '/api/clients/:id',
      {
        config: { bookAction: 'clients.delete' },
        schema: {
          tags: ['Clients'],
          summary: 'Delete a client (restorable for 10 minutes)',
          params: idParams,
          response: { 204: z.null(), ...refusals },
        },
      },
      async (request, reply) => {
        const [deleted] = await deleteAndTell(request, [request.params.id]);
        if (!deleted) throw new HttpError(404, 'client-not-found');
        return reply.status(204).send(null);
      },
    );

    routes.post(
      '/api/clients/:id/restore',
      {
        config: { bookAction: 'clients.delete' },
        schema: {
          tags: ['Clients'],
          summary: 'Restore a deleted client',
          params: idParams,
          response: { 200: clientSchema, ...refusals },
        },
      },
      async (request) => {
        const [restored] = await restoreAndTell(request, [request.params.id]);
        if (!restored) throw new HttpError(404, 'not-restorable');
        return restored;
      },
    );

    routes.post(
      apiPaths.bulkDelete,
      {
        config: { bookAction: 'clients.delete' },
        schema: {
          tags: ['Clients'],
          summary: 'Delete several clients at once',
          body: clientIdsSchema,
          response: { 200: bulkDeletedSchema, ...refusals },
        },
      },
      async (request) => ({ deleted: await deleteAndTell(request, request.body.ids) }),
    );

    routes.post(
      apiPaths.bulkRestore,
      {
        config: { bookAction: 'clients.delete' },
        schema: {
          tags: ['Clients'],
          summary: 'Restore several deleted clients at once',
          body: clientIdsSchema,
          response: { 200: bulkRestoredSchema, ...refusals },
        },
      },
      async (request) => ({ restored: await restoreAndTell(request, request.body.ids) }),
    );
  });
}

/** An edit, and a balance set by hand (an adjustment), each on a line of its own. */
function clientChangeActivity(
  client: Client,
  change: { balanceChanged: boolean; changesOthers: boolean },
): Activity[] {
  const lines: Activity[] = [];
  if (change.changesOthers) {
    lines.push({
      action: 'client.updated',
      clientId: client.id,
      summary: `Edited client ${clientName(client)}`,
    });
  }
  // A balance sent as it was is no change of it (the edit form sends every field).
  if (change.balanceChanged) {
    lines.push({
      action: 'balance.edited',
      clientId: client.id,
      summary: `Set the balance of ${clientName(client)} to ₹${client.balance}`,
      details: { amount: client.balance },
    });
  }
  return lines;
}
