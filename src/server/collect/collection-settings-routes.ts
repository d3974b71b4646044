import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiRefusalSchema } from '../../shared/api-error.ts';
import { collectionSettingsSchema } from '../../shared/collection-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { bookOf, requireSession, type SessionReader } from '../auth/session.ts';
import { recordActivity } from '../books/activity-repository.ts';
import { memberOf } from '../books/book-member.ts';
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
        config: { bookAction: 'read' },
        schema: {
          tags: ['Getting paid'],
          summary: "The operator's collection settings (the defaults until saved)",
          response: { 200: collectionSettingsSchema, '4xx': apiRefusalSchema },
        },
      },
      (request) => getCollectionSettings(database, bookOf(request).id),
    );
    routes.put(
      apiPaths.collectionSettings,
      {
        config: { bookAction: 'collection-settings.change' },
        schema: {
          tags: ['Getting paid'],
          summary: "Save the operator's collection settings (every field)",
          body: collectionSettingsSchema,
          response: { 200: collectionSettingsSchema, '4xx': apiRefusalSchema },
        },
      },
      (request) => {
        const member = memberOf(request);
        const ownerId = member.bookId;
        return writeWithEvents(database, bus, async (trx, publish) => {
          const settings = await saveCollectionSettings(trx, ownerId, request.body);
          const event = { type: 'collection-settings.updated' as const, settings };
          await publish({ kind: 'event', ownerId, event });
          await recordActivity(trx, member, {
            action: 'collection-settings.updated',
            summary: 'Changed the collection settings',
          });
          return settings;
        });
      },
    );
  });
}
