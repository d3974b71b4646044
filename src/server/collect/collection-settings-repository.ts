import {
  type CollectionSettings,
  type CollectionSettingsInput,
  DEFAULT_COLLECTION_SETTINGS,
  defaultTemplates,
  type ReminderTemplates,
} from '../../shared/collection-schema.ts';
import type { WriteTransaction } from '../db/database.ts';
import { handleOf, type ReadSource } from '../db/reader.ts';

/**
 * The other languages' templates as saved (JSON by language, written only by
 * saveCollectionSettings); a language not saved yet has its built-in ones.
 */
function templatesOf(stored: string): CollectionSettings['templates'] {
  const saved = JSON.parse(stored) as Partial<CollectionSettings['templates']>;
  return { hi: saved.hi ?? defaultTemplates('hi') };
}

function storedTemplates(templates: { hi: ReminderTemplates }): string {
  const { reminderMessage, reminderEmailSubject } = templates.hi;
  return JSON.stringify({ hi: { reminderMessage, reminderEmailSubject } });
}

/** An operator's collection settings: the defaults until they first save theirs. */
export async function getCollectionSettings(
  source: ReadSource,
  ownerId: string,
): Promise<CollectionSettings> {
  const row = await handleOf(source)
    .selectFrom('collection_settings')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) return DEFAULT_COLLECTION_SETTINGS;
  return {
    businessName: row.business_name,
    upiId: row.upi_id,
    payeeName: row.payee_name,
    otherWaysToPay: row.other_ways_to_pay,
    reminderMessage: row.reminder_message,
    reminderEmailSubject: row.reminder_email_subject,
    templates: templatesOf(row.reminder_templates),
    paymentTermsDays: Number(row.payment_terms_days),
  };
}

/** Days after its date that what an operator charges is due (0 until they set terms). */
export async function paymentTermsOf(source: ReadSource, ownerId: string): Promise<number> {
  const row = await handleOf(source)
    .selectFrom('collection_settings')
    .select('payment_terms_days')
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return row ? Number(row.payment_terms_days) : 0;
}

export async function saveCollectionSettings(
  trx: WriteTransaction,
  ownerId: string,
  settings: CollectionSettingsInput,
): Promise<CollectionSettings> {
  const columns = {
    business_name: settings.businessName,
    upi_id: settings.upiId,
    payee_name: settings.payeeName,
    other_ways_to_pay: settings.otherWaysToPay,
    reminder_message: settings.reminderMessage,
    reminder_email_subject: settings.reminderEmailSubject,
    // Left out by a client written before they existed: what is saved stays.
    ...(settings.templates === undefined
      ? {}
      : { reminder_templates: storedTemplates(settings.templates) }),
    ...(settings.paymentTermsDays === undefined
      ? {}
      : { payment_terms_days: settings.paymentTermsDays }),
    updated_at: new Date().toISOString(),
  };
  await trx
    .insertInto('collection_settings')
    .values({ owner_id: ownerId, ...columns })
    .onConflict((conflict) => conflict.column('owner_id').doUpdateSet(columns))
    .execute();
  return getCollectionSettings(trx, ownerId);
}
