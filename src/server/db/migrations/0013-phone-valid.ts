import type { Kysely, Migration } from 'kysely';
import { type MetadataJson, parsePhoneNumberFromString } from 'libphonenumber-js/core';
import fullMetadata from './libphonenumber-1.13.16-metadata.max.json' with { type: 'json' };

/*
 * Migration 0013: which stored phones are real numbers. Self-contained, with its own copy of
 * the rule as it was written (the app's rule may change; what ran must not): libphonenumber's
 * full metadata as it was (a frozen copy), India by default. Numbers that fail stay as they
 * are, readable and searchable, marked 0 (docs/decisions/0028-real-phone-numbers.md).
 */

const BATCH = 1000;
const PHONE_CHARACTERS = /^\+?[\d\s().-]+$/;
const METADATA = fullMetadata as MetadataJson;

function isRealNumber(phone: string): boolean {
  return (
    PHONE_CHARACTERS.test(phone.trim()) &&
    parsePhoneNumberFromString(phone, 'IN', METADATA)?.isValid() === true
  );
}

/** As the app showed a phone when this was written: "98765 43210", "+44 20 7946 0958". */
function display(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone, 'IN', METADATA);
  if (!parsed) return phone;
  return parsed.country === 'IN'
    ? parsed.formatNational().replace(/^0/, '')
    : parsed.formatInternational();
}

interface ClientPhone {
  seq: number;
  phone: string;
  phone_display: string | null;
  phone_valid: number;
}

export const phoneValidMigration: Migration = {
  async up(db: Kysely<unknown>) {
    // 1 by default: every phone written from now on has passed the rule.
    await db.schema
      .alterTable('clients')
      .addColumn('phone_valid', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    const clients = db as unknown as Kysely<{ clients: ClientPhone }>;
    for (let after = 0; ; ) {
      const rows = await clients
        .selectFrom('clients')
        .select(['seq', 'phone', 'phone_display'])
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      for (const row of rows) {
        const valid = isRealNumber(row.phone);
        // A restored client had no display until now: the list shows one for every client.
        if (valid && row.phone_display !== null) continue;
        await clients
          .updateTable('clients')
          .set({
            phone_valid: valid ? 1 : 0,
            ...(row.phone_display === null ? { phone_display: display(row.phone) } : {}),
          })
          .where('seq', '=', row.seq)
          .execute();
      }
      after = Number(rows[rows.length - 1]?.seq);
    }
  },
};
