import type { Client } from './client-schema.ts';
import type { Settings } from './settings-schema.ts';

/** The close code of a live socket whose session ended (signed out elsewhere, expired). */
export const SESSION_ENDED_CLOSE_CODE = 4401;

/** Messages the server sends on /api/live. */
export type LiveEvent =
  | { type: 'client.created'; client: Client }
  | { type: 'client.updated'; client: Client }
  | { type: 'client.deleted'; id: string }
  | { type: 'settings.updated'; settings: Settings };
