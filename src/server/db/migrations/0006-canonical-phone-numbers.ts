import type { Kysely, Migration } from 'kysely';
import { type MetadataJson, parsePhoneNumberFromString } from 'libphonenumber-js/core';
import defaultMetadata from './libphonenumber-1.13.16-metadata.min.json' with { type: 'json' };

/**
 * Migration 0006: phones were 10 digits as typed; now one form (E.164) that any written form
 * finds. With libphonenumber's default metadata as it ran (a frozen copy), not the app's rule.
 */
export const canonicalPhoneNumbersMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const clients = db as unknown as Kysely<{ clients: ClientRow }>;
    for (let after = 0; ; ) {
      const rows = await clients
        .selectFrom('clients')
        .select(['seq', 'fname', 'lname', 'email', 'phone'])
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return;
      for (const row of rows) {
        const phone = canonicalPhone(row.phone);
        await clients
          .updateTable('clients')
          .set({ phone, search_text: searchTextOf({ ...row, phone }) })
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
  fname: string;
  lname: string;
  email: string;
  phone: string;
  search_text: string;
}

/** An old phone in its stored form: parsed when valid, else an Indian number by its digits. */
function canonicalPhone(phone: string): string {
  const text = phone.trim();
  const parsed = /^\+?[\d\s().-]+$/.test(text)
    ? parsePhoneNumberFromString(text, 'IN', METADATA)
    : undefined;
  if (parsed?.isValid()) return parsed.number;
  return /^\d{10}$/.test(phone) ? `+91${phone}` : phone;
}

/** The four fields, each in NFC and lower case, one per line (no match spans two). */
function searchTextOf(row: Omit<ClientRow, 'seq' | 'search_text'>): string {
  return [row.fname, row.lname, row.email, row.phone]
    .map((text) => text.normalize('NFC').toLowerCase())
    .join('\n');
}
