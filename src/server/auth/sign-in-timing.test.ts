import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { signUp, startTestApp, type TestApp, uniqueEmail } from '../test-support.ts';
import { ARGON2_OPTIONS } from './password.ts';

// Every argon2 computation the server makes, whoever asks for it (our hasher, through
// better-auth), with the parameters it ran with: its cost.
const argon2Runs = vi.hoisted(() => [] as { kind: 'hash' | 'verify'; parameters: string }[]);

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  // "$argon2id$v=19$m=19456,t=2,p=1$salt$hash" → "argon2id$v=19$m=19456,t=2,p=1"
  const parametersOf = (encoded: string) => encoded.split('$').slice(1, 4).join('$');
  return {
    ...real,
    async hash(...args: Parameters<typeof real.hash>) {
      const encoded = await real.hash(...args);
      argon2Runs.push({ kind: 'hash', parameters: parametersOf(encoded) });
      return encoded;
    },
    async verify(...args: Parameters<typeof real.verify>) {
      argon2Runs.push({ kind: 'verify', parameters: parametersOf(String(args[0])) });
      return real.verify(...args);
    },
  };
});

let t: TestApp;
let email: string;
const statements: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  ({ email } = await signUp(t.app));
  // better-auth queries through the same Kysely instance: its executor sees every statement.
  const executor = t.database.db.getExecutor() as unknown as {
    executeQuery(query: { sql: string }, ...rest: unknown[]): unknown;
  };
  const execute = executor.executeQuery.bind(executor);
  executor.executeQuery = (query, ...rest) => {
    statements.push(query.sql);
    return execute(query, ...rest);
  };
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  argon2Runs.length = 0;
  statements.length = 0;
});

let address = 0;
async function failedSignIn(who: string) {
  address += 1;
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    remoteAddress: `192.0.2.${address}`,
    payload: { email: who, password: 'not the password' },
  });
  expect(answer.statusCode).toBe(401);
  const work = {
    argon2: [...argon2Runs],
    limiter: statements.filter((s) => /rate_limits/.test(s)),
  };
  argon2Runs.length = 0;
  statements.length = 0;
  return work;
}

const OUR_PARAMETERS = `argon2id$v=19$m=${ARGON2_OPTIONS.memoryCost},t=${ARGON2_OPTIONS.timeCost},p=${ARGON2_OPTIONS.parallelism}`;

test('an unknown e-mail costs one argon2id run with the same parameters as a wrong password', async () => {
  const wrongPassword = await failedSignIn(email);
  const unknownEmail = await failedSignIn(uniqueEmail('nobody'));
  expect(wrongPassword.argon2).toEqual([{ kind: 'verify', parameters: OUR_PARAMETERS }]);
  // better-auth hashes the given password when no account matches: the same computation.
  expect(unknownEmail.argon2).toEqual([{ kind: 'hash', parameters: OUR_PARAMETERS }]);
});

test('the rate limiter does the same database work for an unknown e-mail and a wrong password', async () => {
  const wrongPassword = await failedSignIn(email);
  const unknownEmail = await failedSignIn(uniqueEmail('nobody'));
  expect(wrongPassword.limiter.length).toBeGreaterThan(0);
  expect(unknownEmail.limiter).toEqual(wrongPassword.limiter);
});
