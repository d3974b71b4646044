// What the API's route files share, written once: the refusal every route may answer, the
// `:id` of a path, and the parts app.ts hands each area's routes.
import * as z from 'zod/mini';
import { apiRefusalSchema } from '../../shared/api-error.ts';
import type { Auth } from '../auth/auth.ts';
import type { SessionReader } from '../auth/session.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { EventBus } from '../live/event-bus.ts';
import type { PageCursors } from './page-cursors.ts';

/** The 4xx answers of a route's schema: every refusal has the one shape. */
export const refusals = { '4xx': apiRefusalSchema };

/** A path's `:id`; whether it names anything is the repository's to say (not found). */
export const idParams = z.object({ id: z.string() });

/** What app.ts registers every area's routes with; each takes the parts it uses. */
export interface RouteParts {
  config: Config;
  database: Database;
  auth: Auth;
  readSession: SessionReader;
  bus: EventBus;
  /** Page cursors and activity ids, written and read under the panel's one key. */
  cursors: PageCursors;
}
