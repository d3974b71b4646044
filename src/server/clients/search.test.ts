import { parse } from 'csv-parse/sync';
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
/** An operator whose clients are written in Devanagari. */
let hindiCookie: string;

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

/** A new operator with these clients; their session cookie. */
async function operatorWith(clients: [string, string, string, string][]): Promise<string> {
  const { cookie: theirs } = await signUp(t.app);
  for (const [fname, lname, email, phone] of clients) {
    const response = await post(t.app, '/api/clients', theirs, {
      fname,
      lname,
      email,
      phone,
      balance: '0',
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  return theirs;
}

/** The first names a search finds in the list, checking its total too. */
async function foundInList(operatorCookie: string, q: string): Promise<string[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/clients?sort=fname&q=${encodeURIComponent(q)}`,
    headers: { cookie: operatorCookie },
  });
  expect(response.statusCode).toBe(200);
  const body = response.json() as { items: Client[]; total: number };
  expect(body.total).toBe(body.items.length);
  return body.items.map((c) => c.fname).sort();
}

beforeAll(async () => {
  t = await startTestApp();
  cookie = await operatorWith(people);
});
afterAll(async () => {
  await t.close();
});

/*
 * Devanagari: vowel signs (matras) and the virama that joins consonants (क्ष, श्री) are code
 * points of their own, so a search is a substring of code points as for Latin text, through
 * the same folding (NFC: a nukta letter typed as one code point, ज़ U+095B, and as two, ज + ़,
 * are one text), at every length: 1 and 2 code points by scan, 3 and more through SQLite's
 * trigram index.
 */
const hindiPeople: [string, string, string, string][] = [
  ['राजेश कुमार', 'सिंह', 'rajesh.s@example.com', '9555555551'],
  ['लक्ष्मी', 'शर्मा', 'lakshmi@example.com', '9555555552'],
  ['श्रीनिवास', 'अय्यर', 'srinivas@example.com', '9555555553'],
  ['सीता', 'वर्मा', 'sita@example.com', '9555555554'],
  // Nukta letters typed each as one code point (ज़ U+095B, ख़ U+0959).
  ['\u095Bोया', '\u0959ान', 'zoya@example.com', '9555555555'],
];
const ZOYA = '\u095Bोया';

const hindiCases: [string, string[]][] = [
  ['ज', ['राजेश कुमार', ZOYA]],
  ['ष', ['लक्ष्मी']],
  ['स', ['राजेश कुमार', 'श्रीनिवास', 'सीता']],
  // A vowel sign alone.
  ['ी', ['लक्ष्मी', 'श्रीनिवास', 'सीता']],
  ['रा', ['राजेश कुमार']],
  ['मा', ['राजेश कुमार', 'लक्ष्मी', 'सीता']],
  // A consonant with its virama, and the conjuncts it makes.
  ['क्', ['लक्ष्मी']],
  ['क्ष', ['लक्ष्मी']],
  ['श्री', ['श्रीनिवास']],
  ['र्मा', ['लक्ष्मी', 'सीता']],
  // The middle of a name, a whole one, and a first name of two words.
  ['जेश', ['राजेश कुमार']],
  ['निवा', ['श्रीनिवास']],
  ['अय्यर', ['श्रीनिवास']],
  ['राजेश कुमार', ['राजेश कुमार']],
  // Fields do not run into each other.
  ['कुमार सिंह', []],
  ['ट', []],
  // A nukta letter found however it is typed: one code point or two.
  ['\u095B', [ZOYA]],
  ['\u091C\u093C', [ZOYA]],
  ['\u091C\u093Cो', [ZOYA]],
  ['\u095Bोया', [ZOYA]],
  ['\u0916\u093Cान', [ZOYA]],
];

describe(`Devanagari search on ${testDialect()}`, () => {
  beforeAll(async () => {
    hindiCookie = await operatorWith(hindiPeople);
  });

  test.each(hindiCases)('"%s" finds %j in the list', async (q, expected) => {
    expect(await foundInList(hindiCookie, q)).toEqual([...expected].sort());
  });

  test.each(hindiCases)('"%s" finds %j in the export', async (q, expected) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/clients/export?sort=fname&q=${encodeURIComponent(q)}`,
      headers: { cookie: hindiCookie },
    });
    expect(response.statusCode).toBe(200);
    const [, ...rows] = parse(response.body) as string[][];
    expect(rows.map((row) => row[0]).sort()).toEqual([...expected].sort());
  });
});

describe(`search on ${testDialect()}`, () => {
  test.each(cases)('"%s" finds %j', async (q, expected) => {
    expect(await foundInList(cookie, q)).toEqual([...expected].sort());
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
