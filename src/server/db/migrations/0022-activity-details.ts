import type { Kysely, Migration } from 'kysely';

/**
 * Migration 0022: what a line of the activity log was about beyond its client (the amount of a
 * payment, the member whose role changed and the new role, the number of clients imported), as
 * JSON, so that the web app can say it in the reader's language. Null for the lines written
 * before: they read as they did.
 *
 * Self-contained, as every migration is (docs/decisions/0032-frozen-migrations.md).
 */
export const activityDetailsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('activity').addColumn('details', 'text').execute();
  },
};
