import type { Kysely, Migration } from 'kysely';

/**
 * Migration 0021: the book each account last worked in. A membership records when its account
 * last switched to the book or joined it; a new sign-in starts in the book used last (while
 * still a member), not always in the account's own, which for a shop's staff is an empty book
 * they never asked for. Null until then: such an account starts in its own book, as before.
 *
 * Self-contained, as every migration is (docs/decisions/0032-frozen-migrations.md).
 */
export const lastUsedBookMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('book_members').addColumn('last_used_at', 'text').execute();
  },
};
