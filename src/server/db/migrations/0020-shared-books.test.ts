import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createAuth } from '../../auth/auth.ts';
import { PANEL_V01_OPERATORS, panelV01Copy, testConfig } from '../../test-support.ts';
import { type Database, openDatabase } from '../database.ts';
import { migrate } from '../migrate.ts';

/*
 * Migration 0020 on a version 0.1 panel brought up to 0019 (the schema the code before shared
 * books made), with collection settings saved by one operator: every account's clients become
 * its own book, owned by it, and nothing of the book's rows moves; the data's foreign keys
 * then name books, on both databases.
 */

let panel: Awaited<ReturnType<typeof panelV01Copy>>;
let database: Database;
const ids = { first: '', second: '' };
let clientsBefore: unknown[];

beforeAll(async () => {
  panel = await panelV01Copy();
  const config = testConfig({ database: panel.database });
  database = openDatabase(config.database);
  const auth = createAuth(config, database);
  await migrate(auth, database, { timeZone: config.timeZone, upTo: '0019_languages' });
  for (const which of ['first', 'second'] as const) {
    const user = await database.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', PANEL_V01_OPERATORS[which].email)
      .executeTakeFirstOrThrow();
    ids[which] = user.id;
  }
  await database.write((trx) =>
    sql`INSERT INTO collection_settings (owner_id, business_name, upi_id, payee_name,
        other_ways_to_pay, reminder_message, reminder_email_subject, updated_at)
      VALUES (${ids.first}, ${'  Sharma Stores '}, '', '', '', 'Pay', 'Pay', ${new Date().toISOString()})`.execute(
      trx,
    ),
  );
  clientsBefore = await database.db.selectFrom('clients').selectAll().orderBy('seq').execute();
  await migrate(auth, database, { timeZone: config.timeZone });
});

afterAll(async () => {
  await database?.close();
  await panel?.drop();
});

test("every account's clients are its own book, which it owns and its sessions start in", async () => {
  const books = await database.db.selectFrom('books').selectAll().orderBy('name').execute();
  const users = await database.db.selectFrom('user').select(['id', 'name', 'email']).execute();
  expect(books.map((book) => book.id).sort()).toEqual(users.map((user) => user.id).sort());
  const byId = Object.fromEntries(books.map((book) => [book.id, book.name]));
  // Named after the business where one is saved, else after the account.
  expect(byId[ids.first]).toBe('Sharma Stores');
  const second = users.find((user) => user.id === ids.second);
  expect(byId[ids.second]).toBe(second?.name.trim() || second?.email);
  const members = await database.db.selectFrom('book_members').selectAll().execute();
  expect(members.map((member) => [member.book_id, member.user_id, member.role]).sort()).toEqual(
    users.map((user) => [user.id, user.id, 'owner']).sort(),
  );
  const sessions = await database.db.selectFrom('session').select('current_book_id').execute();
  expect(sessions.every((session) => session.current_book_id === null)).toBe(true);
});

test('no row of the books moved', async () => {
  const clientsAfter = await database.db.selectFrom('clients').selectAll().orderBy('seq').execute();
  expect(clientsAfter).toEqual(clientsBefore);
  expect(clientsAfter.length).toBeGreaterThan(0);
});

test("the data's foreign keys name books: a new book's client is stored, one of no book is refused", async () => {
  const book = randomUUID();
  const now = new Date().toISOString();
  const client = (owner: string) =>
    sql`INSERT INTO clients (id, owner_id, fname, lname, email, phone, balance_paise, version,
        created_at, updated_at)
      VALUES (${randomUUID()}, ${owner}, 'New', 'Book', '', '', ${0n}, 1, ${now}, ${now})`;
  await database.write(async (trx) => {
    await trx
      .insertInto('books')
      .values({ id: book, name: 'Second shop', created_at: now })
      .execute();
    await client(book).execute(trx);
  });
  await expect(database.write((trx) => client(randomUUID()).execute(trx))).rejects.toThrow(
    /foreign key/i,
  );
  // Removing a book takes its data with it, as removing an account did.
  await database.write((trx) => trx.deleteFrom('books').where('id', '=', book).execute());
  const left = await database.db
    .selectFrom('clients')
    .select('id')
    .where('owner_id', '=', book)
    .execute();
  expect(left).toEqual([]);
});
