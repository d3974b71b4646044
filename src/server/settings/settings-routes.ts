import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiPaths } from '../../shared/paths.ts';
import { settingsSchema } from '../../shared/settings-schema.ts';
import { registerSignedIn } from '../auth/session.ts';
import { type RouteParts, refusals } from '../http/api-routes.ts';
import { PUBLIC_ROUTE } from '../http/openapi.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { getSettings, saveSettings } from './settings-repository.ts';

export async function registerSettingsRoutes(
  app: FastifyInstance,
  { database, readSession, bus }: RouteParts,
): Promise<void> {
  // Public: the signed-out navbar needs allowRegistrations.
  app.withTypeProvider<ZodTypeProvider>().get(
    apiPaths.settings,
    {
      schema: {
        ...PUBLIC_ROUTE,
        tags: ['Settings'],
        summary: 'Read the panel settings',
        response: { 200: settingsSchema },
      },
    },
    () => getSettings(database),
  );

  // Panel-wide, so only an administrator changes them.
  await registerSignedIn(app, { readSession, administrator: true }, async (routes) => {
    routes.put(
      apiPaths.settings,
      {
        schema: {
          tags: ['Settings'],
          summary: 'Change the panel settings (administrator)',
          body: settingsSchema,
          response: { 200: settingsSchema, ...refusals },
        },
      },
      (request) =>
        writeWithEvents(database, bus, async (trx, publish) => {
          const settings = await saveSettings(trx, request.body);
          const event = { type: 'settings.updated' as const, settings };
          await publish({ kind: 'event', ownerId: null, event });
          return settings;
        }),
    );
  });
}
