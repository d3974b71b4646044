import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Database } from './database.ts';
import { settingsAndRateLimitsMigration } from './migrations/0001-settings-and-rate-limits.ts';
import { clientsMigration } from './migrations/0002-clients.ts';
import { searchTextAndAdministratorMigration } from './migrations/0003-search-text-and-administrator.ts';
import { postgresSearchIndexAndBusMigration } from './migrations/0004-postgres-search-index-and-bus.ts';
import { owingAndCreditTotalsMigration } from './migrations/0005-owing-and-credit-totals.ts';
import { canonicalPhoneNumbersMigration } from './migrations/0006-canonical-phone-numbers.ts';
import { ledgerMigration } from './migrations/0007-ledger.ts';
import { restorableDeletesMigration } from './migrations/0008-restorable-deletes.ts';
import { phoneDisplayMigration } from './migrations/0009-phone-display.ts';
import { operatorDeactivationsMigration } from './migrations/0010-operator-deactivations.ts';
import { requireTwoFactorMigration } from './migrations/0011-require-two-factor.ts';
import { oneTwoFactorRowPerOperatorMigration } from './migrations/0012-one-two-factor-row-per-operator.ts';
import { phoneValidMigration } from './migrations/0013-phone-valid.ts';
import { operatorColumnsWithoutDefaultsMigration } from './migrations/0014-operator-columns-without-defaults.ts';
import { gettingPaidMigration } from './migrations/0015-getting-paid.ts';
import { dueDatesAndPromisesMigration } from './migrations/0016-due-dates-and-promises.ts';
import { ageingVersionAndKeyedDuesMigration } from './migrations/0017-ageing-version-and-keyed-dues.ts';
import { listVersionsMigration } from './migrations/0018-list-versions.ts';
import { languagesMigration } from './migrations/0019-languages.ts';
import { sharedBooksMigration } from './migrations/0020-shared-books.ts';
import { lastUsedBookMigration } from './migrations/0021-last-used-book.ts';
import { activityDetailsMigration } from './migrations/0022-activity-details.ts';

export interface MigrationOptions {
  /** The panel's time zone: existing clients' opening entries are dated in it. */
  timeZone: string;
  /**
   * The last migration to run (all when unset): a test of a migration starts from a panel as
   * it was before it.
   */
  upTo?: string;
}

/**
 * The app's own tables, after better-auth has created its own ("user", "session", …), in
 * order, by the names the migration table holds. Append only, and a file here is never edited
 * once released: a fix is a new migration (docs/decisions/0032-frozen-migrations.md).
 */
function appMigrations(
  options: MigrationOptions,
  database: Pick<Database, 'rewriteTableDefinitions'>,
): Record<string, Migration> {
  return {
    '0001_settings_and_rate_limits': settingsAndRateLimitsMigration,
    '0002_clients': clientsMigration,
    '0003_search_text_and_administrator': searchTextAndAdministratorMigration,
    '0004_postgres_search_index_and_bus': postgresSearchIndexAndBusMigration,
    '0005_owing_and_credit_totals': owingAndCreditTotalsMigration,
    '0006_canonical_phone_numbers': canonicalPhoneNumbersMigration,
    '0007_ledger': ledgerMigration(options.timeZone),
    '0008_restorable_deletes': restorableDeletesMigration,
    '0009_phone_display': phoneDisplayMigration,
    '0010_operator_deactivations': operatorDeactivationsMigration,
    '0011_require_two_factor': requireTwoFactorMigration,
    '0012_one_two_factor_row_per_operator': oneTwoFactorRowPerOperatorMigration,
    '0013_phone_valid': phoneValidMigration,
    '0014_operator_columns_without_defaults': operatorColumnsWithoutDefaultsMigration,
    '0015_getting_paid': gettingPaidMigration,
    '0016_due_dates_and_promises': dueDatesAndPromisesMigration,
    '0017_ageing_version_and_keyed_dues': ageingVersionAndKeyedDuesMigration,
    '0018_list_versions': listVersionsMigration,
    '0019_languages': languagesMigration,
    '0020_shared_books': sharedBooksMigration({
      ...(database.rewriteTableDefinitions
        ? { rewriteTableDefinitions: database.rewriteTableDefinitions }
        : {}),
    }),
    '0021_last_used_book': lastUsedBookMigration,
    '0022_activity_details': activityDetailsMigration,
  };
}

class InCodeMigrations implements MigrationProvider {
  constructor(
    private readonly options: MigrationOptions,
    private readonly database: Pick<Database, 'rewriteTableDefinitions'>,
  ) {}
  async getMigrations() {
    return appMigrations(this.options, this.database);
  }
}

export async function runAppMigrations(
  database: Database,
  options: MigrationOptions,
): Promise<void> {
  const migrator = new Migrator({
    db: database.db,
    provider: new InCodeMigrations(options, database),
    migrationTableName: 'app_migrations',
    migrationLockTableName: 'app_migrations_lock',
  });
  const { error, results } = await (options.upTo === undefined
    ? migrator.migrateToLatest()
    : migrator.migrateTo(options.upTo));
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${String(error)}`, { cause: error });
  }
}
