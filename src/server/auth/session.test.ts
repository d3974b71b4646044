import { createHmac } from 'node:crypto';
import Fastify from 'fastify';
import { expect, test } from 'vitest';
import { registerErrorHandling } from '../http/errors.ts';
import {
  decorateOperator,
  OPERATOR_WITHOUT_SESSION_CHECK,
  type Operator,
  requireSession,
  storedBookRole,
  verifiedTokens,
} from './session.ts';

const alice: Operator = {
  id: 'u-alice',
  email: 'alice@example.com',
  role: 'operator',
  language: 'en',
  sessionId: 's1',
  twoFactorSetupRequired: false,
  book: { id: 'u-alice', role: 'owner' },
};

async function appWithRoutes() {
  const app = Fastify();
  decorateOperator(app);
  registerErrorHandling(app);
  const errors: unknown[] = [];
  app.addHook('onError', async (_request, _reply, error) => {
    errors.push(error);
  });
  // A route that forgot the session check.
  app.get('/forgot', async (request) => ({ owner: request.operator.id }));
  await app.register(async (scope) => {
    requireSession(scope, async (headers) => (headers.cookie === 'valid' ? alice : null));
    scope.get('/checked', async (request) => ({ owner: request.operator.id }));
  });
  await app.ready();
  return { app, errors };
}

test('a route that forgot the session check fails loudly instead of querying for nobody', async () => {
  const { app, errors } = await appWithRoutes();
  const response = await app.inject({
    method: 'GET',
    url: '/forgot',
    headers: { cookie: 'valid' },
  });
  expect(response.statusCode).toBe(500);
  expect(response.json()).toEqual({
    message: 'Something went wrong on the server',
    code: 'server-error',
  });
  expect(String(errors[0])).toContain(OPERATOR_WITHOUT_SESSION_CHECK);
});

test('behind the session check the operator is there, and without a session it is a 401', async () => {
  const { app } = await appWithRoutes();
  const ok = await app.inject({ method: 'GET', url: '/checked', headers: { cookie: 'valid' } });
  expect(ok.json()).toEqual({ owner: 'u-alice' });
  const signedOut = await app.inject({ method: 'GET', url: '/checked' });
  expect(signedOut.statusCode).toBe(401);
});

test('a cookie is good once its signature is: one remembered never lets a forged one through', () => {
  const secret = 'a-secret-a-secret-a-secret-a-secret-0123';
  const signed = (token: string, key = secret) =>
    `${token}.${createHmac('sha256', key).update(token).digest('base64')}`;
  const tokenOf = verifiedTokens(secret);
  const genuine = signed('token-one');
  for (let i = 0; i < 3; i += 1) expect(tokenOf(genuine)).toBe('token-one');
  // The same token under another signature, another token under this one, another key.
  const signature = genuine.slice(genuine.lastIndexOf('.'));
  expect(tokenOf(`token-one.${'A'.repeat(43)}=`)).toBeNull();
  expect(tokenOf(`token-two${signature}`)).toBeNull();
  expect(tokenOf(signed('token-one', 'another-secret-another-secret-01234567'))).toBeNull();
  expect(tokenOf(signed('token-two'))).toBe('token-two');
});

test("a stored membership's role is taken only when it is one of the book roles", () => {
  for (const role of ['owner', 'manager', 'staff', 'viewer'] as const) {
    expect(storedBookRole(role)).toBe(role);
  }
  for (const stored of ['admin', 'Owner', '', 'toString', '__proto__', null]) {
    expect(() => storedBookRole(stored)).toThrow(/unknown role/);
  }
});
