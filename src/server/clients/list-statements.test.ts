import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  addClient,
  injectCall,
  joinBookAs,
  type SignedUp,
  startTestApp,
  type TestApp,
  testDialect,
} from '../test-support.ts';

/*
 * Issue 23: the membership of the session's book is read in the session's own statement, so a
 * list request runs as many SQL statements as before books (the session, the page, the totals),
 * in the account's own book and in a shared one alike. Counted where every statement of the
 * app's SQLite connection runs: better-sqlite3's statements (hot reads skip Kysely, so a Kysely
 * log would miss them).
 */

type Run = (...args: unknown[]) => unknown;
const METHODS = ['all', 'get', 'run', 'iterate'] as const;

/** Every SQL statement this process runs through better-sqlite3 while `work` runs. */
async function statementsRunBy(work: () => Promise<unknown>): Promise<string[]> {
  const probe = new Database(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, Run>;
  probe.close();
  const originals = METHODS.map((name) => [name, prototype[name] as Run] as const);
  const ran: string[] = [];
  for (const [name, original] of originals) {
    prototype[name] = function (this: { source: string }, ...args: unknown[]) {
      ran.push(this.source.replace(/\s+/g, ' ').trim());
      return original.apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    for (const [name, original] of originals) prototype[name] = original;
  }
  return ran;
}

describe.skipIf(testDialect() !== 'sqlite')('statements per list request', () => {
  let t: TestApp;
  let owner: SignedUp;
  let staff: SignedUp;
  beforeAll(async () => {
    t = await startTestApp();
    owner = t.admin;
    await addClient(t.app, owner.cookie, { lname: 'Counted' });
    staff = await joinBookAs(t.app, owner.cookie, 'staff');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const list = (cookie: string) => async () => {
    const answer = await injectCall(t.app, 'GET', '/api/clients?limit=100', cookie);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().items.map((c: { lname: string }) => c.lname)).toEqual(['Counted']);
  };

  test.for([
    ['the owner, in their own book', () => owner],
    ['a staff member, in the book shared with them', () => staff],
  ] as const)(
    '%s: three statements (session with its membership, page, totals)',
    async ([, who]) => {
      const { cookie } = who();
      // Once first, so that nothing done once per process (a statement's first preparation, a
      // cache filled) is counted as the request's.
      await list(cookie)();
      const ran = await statementsRunBy(list(cookie));
      expect(ran, ran.join('\n')).toHaveLength(3);
      expect(ran[0]).toMatch(/FROM session s .*LEFT JOIN book_members m/);
      expect(ran.slice(1).join('\n')).toMatch(/from "clients"/);
      expect(ran.slice(1).join('\n')).toMatch(/from "?owner_totals"? where/i);
    },
  );
});
