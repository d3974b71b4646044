import type { Settings } from '../../shared/settings-schema.ts';
import { runCompiled } from '../db/compiled-queries.ts';
import type { Database } from '../db/database.ts';

export async function getSettings(database: Database): Promise<Settings> {
  const [row] = await runCompiled<{
    allow_registrations: number;
    disable_balance_on_add: number;
    disable_balance_on_edit: number;
  }>(
    database.db,
    'read-settings',
    () =>
      database.db
        .selectFrom('settings')
        .select(['allow_registrations', 'disable_balance_on_add', 'disable_balance_on_edit'])
        .where('id', '=', 1)
        .compile(),
    [1],
  );
  if (!row) throw new Error('the settings row is missing: migrations have not run');
  return {
    allowRegistrations: Boolean(row.allow_registrations),
    disableBalanceOnAdd: Boolean(row.disable_balance_on_add),
    disableBalanceOnEdit: Boolean(row.disable_balance_on_edit),
  };
}

export async function saveSettings(database: Database, settings: Settings): Promise<Settings> {
  await database.db
    .updateTable('settings')
    .set({
      allow_registrations: settings.allowRegistrations ? 1 : 0,
      disable_balance_on_add: settings.disableBalanceOnAdd ? 1 : 0,
      disable_balance_on_edit: settings.disableBalanceOnEdit ? 1 : 0,
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', 1)
    .execute();
  return getSettings(database);
}
