import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type Settings, settingsSchema } from '../../shared/settings-schema.ts';
import { requireOperator, type SessionReader } from '../auth/session.ts';
import type { Database } from '../db/database.ts';
import { getSettings, saveSettings } from './settings-repository.ts';

interface SettingsRoutesOptions {
  database: Database;
  readSession: SessionReader;
  onSettingsChanged: (settings: Settings) => void;
}

export async function registerSettingsRoutes(
  app: FastifyInstance,
  { database, readSession, onSettingsChanged }: SettingsRoutesOptions,
): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Public: the signed-out navbar needs allowRegistrations.
  routes.get('/api/settings', async () => getSettings(database));

  routes.put('/api/settings', {
    // Sign-in is checked before the body, so a signed-out caller learns nothing about it.
    preValidation: async (request) => {
      await requireOperator(readSession, request);
    },
    schema: { body: settingsSchema },
    handler: async (request) => {
      const saved = await saveSettings(database, request.body);
      onSettingsChanged(saved);
      return saved;
    },
  });
}
