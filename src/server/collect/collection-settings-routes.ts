import type { FastifyInstance } from 'fastify';
import { collectionSettingsSchema } from '../../shared/collection-schema.ts';
import { apiPaths } from '../../shared/paths.ts';
import { bookOf, registerSignedIn } from '../auth/session.ts';
import { recordActivity } from '../books/activity-repository.ts';
import { memberOf } from '../books/book-member.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { getCollectionSettings, saveCollectionSettings } from './collection-settings-repository.ts';

/** Each operator's own: what their clients see when asked to pay. */
export async function registerCollectionSettingsRoutes(
  app: FastifyInstance,
  { database, readSession, bus }: RouteParts,
): Promise<void> {
  await registerSignedIn(app, { readSession }, async (routes) => {
    routes.get(
      apiPaths.collectionSettings,
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Getting paid'],
          summary: "The operator's collection settings (the defaults until saved)",
          response: { 200: collectionSettingsSchema, ...refusals },
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
          response: { 200: collectionSettingsSchema, ...refusals },
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
