import type { Kysely, Migration } from 'kysely';

/** Migration 0008: a deleted client's row and entries, kept for a while to be restored. */
export const restorableDeletesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('deleted_clients')
      .addColumn('client_id', 'text', (c) => c.primaryKey())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
      .addColumn('deleted_at', 'text', (c) => c.notNull())
      .addColumn('client_row', 'text', (c) => c.notNull())
      .addColumn('entry_rows', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('deleted_clients_deleted_at')
      .on('deleted_clients')
      .column('deleted_at')
      .execute();
  },
};
