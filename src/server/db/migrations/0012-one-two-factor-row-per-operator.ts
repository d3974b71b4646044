import type { Kysely, Migration } from 'kysely';

/**
 * Migration 0012: better-auth's table indexes userId without making it unique: two setups at
 * once could leave two rows, and sign-in read the unconfirmed one. Setups are upserts on this
 * index (auth/two-factor.ts).
 */
export const oneTwoFactorRowPerOperatorMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('two_factor_user_unique')
      .on('twoFactor')
      .column('userId')
      .unique()
      .execute();
  },
};
