import type { Insertable } from 'kysely';
import type { WriteTransaction } from './database.ts';
import type { DatabaseSchema } from './schema.ts';

/** Rows per INSERT when many are stored at once, well within both databases' parameter limits. */
const ROWS_PER_INSERT = 500;

/** Many rows in the caller's transaction, a few hundred per statement instead of one each. */
export async function insertRows<Table extends keyof DatabaseSchema & string>(
  trx: WriteTransaction,
  table: Table,
  rows: readonly Insertable<DatabaseSchema[Table]>[],
): Promise<void> {
  // Kysely cannot relate a generic table to its values: the signature above holds the types.
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await trx
      .insertInto(table)
      .values(rows.slice(start, start + ROWS_PER_INSERT) as never)
      .execute();
  }
}
