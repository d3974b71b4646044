import type { Kysely, Migration } from 'kysely';
import { type MetadataJson, parsePhoneNumberFromString } from 'libphonenumber-js/core';
import defaultMetadata from './libphonenumber-1.13.16-metadata.min.json' with { type: 'json' };

/**
 * Migration 0009: phones as people read them, formatted once when written (formatting 100,000
 * of them took over a second of every export). With libphonenumber's default metadata as it
 * ran (a frozen copy), not the app's.
 */
export const phoneDisplayMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('clients').addColumn('phone_display', 'text').execute();
    const clients = db as unknown as Kysely<{ clients: ClientRow }>;
    for (let after = 0; ; ) {
      const rows = await clients
        .selectFrom('clients')
        .select(['seq', 'phone'])
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      for (const row of rows) {
        await clients
          .updateTable('clients')
          .set({ phone_display: display(row.phone) })
          .where('seq', '=', row.seq)
          .execute();
      }
      after = Number(rows[rows.length - 1]?.seq);
    }
  },
};

const BATCH = 1000;
const METADATA = defaultMetadata as MetadataJson;

interface ClientRow {
  seq: number;
  phone: string;
  phone_display: string | null;
}

/** "98765 43210" for an Indian number, "+44 20 7946 0958" for one abroad. */
function display(stored: string): string {
  const parsed = parsePhoneNumberFromString(stored, 'IN', METADATA);
  if (!parsed) return stored;
  return parsed.country === 'IN'
    ? parsed.formatNational().replace(/^0/, '')
    : parsed.formatInternational();
}
