import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { fieldErrorsFromIssues } from '../../shared/api-error.ts';
import { COMMON_PASSWORD_MESSAGE, signInSchema, signUpSchema } from '../../shared/auth-schema.ts';
import type { Config, RateLimitRule } from '../config.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { getSettings } from '../settings/settings-repository.ts';
import { AUTH_BASE_PATH, type Auth, CLIENT_IP_HEADER } from './auth.ts';
import { isCommonPassword } from './password.ts';
import { createRateLimiter } from './rate-limiter.ts';

export const REGISTRATIONS_CLOSED_MESSAGE = 'Registrations are closed';
export const TOO_MANY_ATTEMPTS_MESSAGE = 'Too many attempts. Please wait and try again.';

interface AuthRoutesOptions {
  config: Config;
  database: Database;
  auth: Auth;
}

const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (!result.success) {
    throw new HttpError(
      400,
      'Some fields are not valid',
      fieldErrorsFromIssues(result.error.issues),
    );
  }
  return result.data;
}

/** Hands the request to better-auth as a fetch Request and copies its answer back. */
async function forwardToAuth(
  auth: Auth,
  request: FastifyRequest,
  reply: FastifyReply,
  body?: unknown,
): Promise<FastifyReply> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === CLIENT_IP_HEADER) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  let payload: string | undefined;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    headers.set('content-type', 'application/json');
  }
  const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? 'localhost'}`);
  const response = await auth.handler(
    new Request(url, { method: request.method, headers, body: payload }),
  );
  reply.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === 'set-cookie' || HOP_BY_HOP.has(name)) continue;
    reply.header(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  const text = await response.text();
  return reply.send(text.length > 0 ? text : null);
}

/**
 * Only the four endpoints the product uses are exposed; better-auth's other endpoints
 * (account linking, profile changes, …) stay unreachable.
 */
export async function registerAuthRoutes(
  app: FastifyInstance,
  { config, database, auth }: AuthRoutesOptions,
): Promise<void> {
  const consume = createRateLimiter(database);

  async function limit(key: string, rule: RateLimitRule, reply: FastifyReply): Promise<void> {
    const verdict = await consume(key, rule);
    if (!verdict.allowed) {
      reply.header('retry-after', String(verdict.retryAfterSeconds));
      throw new HttpError(429, TOO_MANY_ATTEMPTS_MESSAGE);
    }
  }

  app.post(`${AUTH_BASE_PATH}/sign-up/email`, async (request, reply) => {
    await limit(`sign-up:ip:${request.ip}`, config.rateLimits.signUpPerIp, reply);
    const settings = await getSettings(database);
    if (!settings.allowRegistrations) throw new HttpError(403, REGISTRATIONS_CLOSED_MESSAGE);
    const input = parseBody(signUpSchema, request.body);
    if (isCommonPassword(input.password)) {
      throw new HttpError(400, COMMON_PASSWORD_MESSAGE, { password: COMMON_PASSWORD_MESSAGE });
    }
    const email = input.email.toLowerCase();
    await limit(`sign-up:email:${email}`, config.rateLimits.signUpPerEmail, reply);
    return forwardToAuth(auth, request, reply, {
      email,
      password: input.password,
      name: input.name || email.split('@')[0],
    });
  });

  app.post(`${AUTH_BASE_PATH}/sign-in/email`, async (request, reply) => {
    await limit(`sign-in:ip:${request.ip}`, config.rateLimits.signInPerIp, reply);
    const input = parseBody(signInSchema, request.body);
    const email = input.email.toLowerCase();
    await limit(`sign-in:email:${email}`, config.rateLimits.signInPerEmail, reply);
    return forwardToAuth(auth, request, reply, { email, password: input.password });
  });

  app.post(`${AUTH_BASE_PATH}/sign-out`, async (request, reply) =>
    forwardToAuth(auth, request, reply, {}),
  );

  app.get(`${AUTH_BASE_PATH}/get-session`, async (request, reply) =>
    forwardToAuth(auth, request, reply),
  );
}
