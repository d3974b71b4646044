import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { createInProcessBus, type EventBus } from './event-bus.ts';
import { createPostgresBus } from './postgres-bus.ts';

/** How long start-up waits for the first LISTEN before serving anyway (it keeps retrying). */
const FIRST_LISTEN_WAIT_MS = 10_000;

/**
 * On PostgreSQL, events cross instances through LISTEN/NOTIFY; on SQLite there is one
 * instance, and they stay in process.
 */
export async function openEventBus(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
): Promise<EventBus> {
  if (config.database.kind !== 'postgres') return createInProcessBus();
  const bus = createPostgresBus({ url: config.database.url, database, log });
  let waited: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    bus.ready,
    new Promise<void>((resolve) => {
      waited = setTimeout(resolve, FIRST_LISTEN_WAIT_MS);
    }),
  ]);
  clearTimeout(waited);
  return bus;
}
