import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '../../shared/client-schema.ts';
import { post, signUp, startTestApp, type TestApp, testDialect } from '../test-support.ts';

/**
 * The same search cases on both databases (this file runs in the server and the
 * server-postgres projects): one folding and literal substrings, at every length.
 */
let t: TestApp;
let cookie: string;

const people: [string, string, string, string][] = [
  ['Élodie', 'Durand', 'elodie.d@example.com', '9876543210'],
  ['Zoë', "O'Brien", 'zoe_ob@example.com', '9000000001'],
  ['Ravi', 'Kum%ar', 'ravi@example.com', '9111111111'],
  ['Anna', 'Mc"Quo\\te', 'anna@example.com', '9222222222'],
  ['ÅSA', 'Lindqvist', 'asa@example.se', '9333333333'],
  ['Ishaan', 'Rao', 'ishaan@example.in', '9444444444'],
];

const cases: [string, string[]][] = [
  ['é', ['Élodie']],
  ['ÉL', ['Élodie']],
  ['élod', ['Élodie']],
  ['zoË', ['Zoë']],
  ['å', ['ÅSA']],
  ['åsa', ['ÅSA']],
  ['%', ['Ravi']],
  ['_', ['Zoë']],
  ['m%a', ['Ravi']],
  ['\\', ['Anna']],
  ['"', ['Anna']],
  ['c"q', ['Anna']],
  ["'", ['Zoë']],
  ["o'b", ['Zoë']],
  ['NOT', []],
  ['a* OR b', []],
  ['(((', []],
  ['9111', ['Ravi']],
  ['44', ['Ishaan']],
  ['example.in', ['Ishaan']],
  ['a', ['Anna', 'ÅSA', 'Élodie', 'Ishaan', 'Ravi', 'Zoë']],
  ['ra', ['Élodie', 'Ishaan', 'Ravi']],
  ['durand', ['Élodie']],
  ['o\\t', ['Anna']],
  // Fields do not run into each other: "Élodie" + "Durand" holds no "iedu".
  ['iedu', []],
];

beforeAll(async () => {
  t = await startTestApp();
  ({ cookie } = await signUp(t.app));
  for (const [fname, lname, email, phone] of people) {
    const response = await post(t.app, '/api/clients', cookie, {
      fname,
      lname,
      email,
      phone,
      balance: '0',
    });
    expect(response.statusCode, response.body).toBe(201);
  }
});
afterAll(async () => {
  await t.close();
});

describe(`search on ${testDialect()}`, () => {
  test.each(cases)('"%s" finds %j', async (q, expected) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/clients?sort=fname&q=${encodeURIComponent(q)}`,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { items: Client[]; total: number };
    expect(body.items.map((c) => c.fname).sort()).toEqual([...expected].sort());
    expect(body.total).toBe(expected.length);
  });
});

test.runIf(testDialect() === 'postgres')(
  'on PostgreSQL a search of 3+ characters can be served by the trigram index',
  async () => {
    // With so few rows a scan is cheapest; forbidding it shows the index serves the query.
    const plan = await t.database.db.connection().execute(async (connection) => {
      await sql`SET enable_seqscan = off`.execute(connection);
      const explained = await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT id FROM clients c
        WHERE c.search_text LIKE ${'%lodi%'} ESCAPE '\\'`.execute(connection);
      await sql`RESET enable_seqscan`.execute(connection);
      return explained.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('clients_search_trgm');
  },
);
