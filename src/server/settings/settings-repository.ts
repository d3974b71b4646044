import type { Settings } from '../../shared/settings-schema.ts';
import { compiledQuery } from '../db/compiled-queries.ts';
import type { WriteTransaction } from '../db/database.ts';
import { exactInteger } from '../db/integers.ts';
import { handleOf, type ReadSource } from '../db/reader.ts';

const readSettingsQuery = compiledQuery('read-settings', (db) =>
  db
    .selectFrom('settings')
    .select(['allow_registrations', 'disable_balance_on_add', 'disable_balance_on_edit'])
    .where('id', '=', 1),
);

export async function getSettings(source: ReadSource): Promise<Settings> {
  const [row] = await readSettingsQuery(handleOf(source), {});
  if (!row) throw new Error('the settings row is missing: migrations have not run');
  return {
    allowRegistrations: exactInteger(row.allow_registrations) !== 0n,
    disableBalanceOnAdd: exactInteger(row.disable_balance_on_add) !== 0n,
    disableBalanceOnEdit: exactInteger(row.disable_balance_on_edit) !== 0n,
  };
}

export async function saveSettings(trx: WriteTransaction, settings: Settings): Promise<Settings> {
  await trx
    .updateTable('settings')
    .set({
      allow_registrations: settings.allowRegistrations ? 1 : 0,
      disable_balance_on_add: settings.disableBalanceOnAdd ? 1 : 0,
      disable_balance_on_edit: settings.disableBalanceOnEdit ? 1 : 0,
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', 1)
    .execute();
  return getSettings(trx);
}
