import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiRefusalSchema } from '../../shared/api-error.ts';
import { collectionSettingsSchema } from '../../shared/collection-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { requireSession, type SessionReader } from '../auth/session.ts';
import type { Database } from '../db/database.ts';
import type { EventBus } from '../live/event-bus.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { getCollectionSettings, saveCollectionSettings } from './collection-settings-repository.ts';

interface CollectionSettingsRoutesOptions {
  database: Database;
  readSession: SessionReader;
  bus: EventBus;
}

/** Each operator's own: what their clients see when asked to pay. */
export async function registerCollectionSettingsRoutes(
  app: FastifyInstance,
  { database, readSession, bus }: CollectionSettingsRoutesOptions,
): Promise<void> {
  await app.register(async (scope) => {
    requireSession(scope, readSession);
    const routes = scope.withTypeProvider<ZodTypeProvider>();
    routes.get(
      apiPaths.collectionSettings,
      {
        schema: {
          tags: ['Getting paid'],
          summary: "The operator's collection settings (the defaults until saved)",
          response: { 200: collectionSettingsSchema, '4xx': apiRefusalSchema },
        },
      },
      (request) => getCollectionSettings(database, request.operator.id),
    );
    routes.put(
      apiPaths.collectionSettings,
      {
        schema: {
          tags: ['Getting paid'],
          summary: "Save the operator's collection settings (every field)",
          body: collectionSettingsSchema,
          response: { 200: collectionSettingsSchema, '4xx': apiRefusalSchema },
        },
      },
      (request) => {
        const ownerId = request.operator.id;
        return writeWithEvents(database, bus, async (trx, publish) => {
          const settings = await saveCollectionSettings(trx, ownerId, request.body);
          const event = { type: 'collection-settings.updated' as const, settings };
          await publish({ kind: 'event', ownerId, event });
          return settings;
        });
      },
    );
  });
}
