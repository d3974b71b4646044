import type { Kysely, Migration } from 'kysely';

/**
 * Migration 0019: languages (issue 22). The operator's account keeps the language of their
 * pages, and each client the language of what they read (their reminders and statement page);
 * both are English until chosen, which is what every panel spoke before this. Collection
 * settings gain the reminder templates of the other languages, as JSON by language
 * (`{"hi": {"reminderMessage": …, "reminderEmailSubject": …}}`); a language missing there uses
 * its built-in template.
 *
 * No CHECK on the languages: the app checks them, and a third language is then a catalogue and
 * a line of code, not a rebuilt table (docs/decisions/0037-i18n-library.md). Self-contained, as
 * every migration is (docs/decisions/0032-frozen-migrations.md).
 */
export const languagesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // better-auth writes its own columns only: a new account starts in English until the
    // sign-up that made it sets its language, in the same request.
    await db.schema
      .alterTable('user')
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .execute();
    // Existing clients take their operator's language, which is English for every one here.
    await db.schema
      .alterTable('clients')
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .execute();
    await db.schema
      .alterTable('collection_settings')
      .addColumn('reminder_templates', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
};
