import type { Client } from './client-schema.ts';
import type { Settings } from './settings-schema.ts';

/** Messages the server sends on /api/live. */
export type LiveEvent =
  | { type: 'client.created'; client: Client }
  | { type: 'client.updated'; client: Client }
  | { type: 'client.deleted'; id: string }
  | { type: 'settings.updated'; settings: Settings };
