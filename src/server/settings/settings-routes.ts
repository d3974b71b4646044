import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiRefusalSchema } from '../../shared/api-error.ts';
import { apiPaths } from '../../shared/paths.ts';
import { settingsSchema } from '../../shared/settings-schema.ts';
import { requireSession, type SessionReader } from '../auth/session.ts';
import type { Database } from '../db/database.ts';
import { PUBLIC_ROUTE } from '../http/openapi.ts';
import type { EventBus } from '../live/event-bus.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { getSettings, saveSettings } from './settings-repository.ts';

interface SettingsRoutesOptions {
  database: Database;
  readSession: SessionReader;
  bus: EventBus;
}

export async function registerSettingsRoutes(
  app: FastifyInstance,
  { database, readSession, bus }: SettingsRoutesOptions,
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
  await app.register(async (scope) => {
    requireSession(scope, readSession, { administrator: true });
    scope.withTypeProvider<ZodTypeProvider>().put(
      apiPaths.settings,
      {
        schema: {
          tags: ['Settings'],
          summary: 'Change the panel settings (administrator)',
          body: settingsSchema,
          response: { 200: settingsSchema, '4xx': apiRefusalSchema },
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
