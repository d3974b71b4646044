import type { IncomingHttpHeaders } from 'node:http';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../http/errors.ts';
import type { Auth } from './auth.ts';

export interface Operator {
  id: string;
  email: string;
}

export type SessionReader = (headers: IncomingHttpHeaders) => Promise<Operator | null>;

export function createSessionReader(auth: Auth): SessionReader {
  return async (headers) => {
    const session = await auth.api.getSession({ headers: fromNodeHeaders(headers) });
    return session ? { id: session.user.id, email: session.user.email } : null;
  };
}

export const SIGNED_OUT_MESSAGE = 'Sign in to continue';

/** The signed-in operator, or a 401 refusal. */
export async function requireOperator(
  readSession: SessionReader,
  request: FastifyRequest,
): Promise<Operator> {
  const operator = await readSession(request.headers);
  if (!operator) throw new HttpError(401, SIGNED_OUT_MESSAGE);
  return operator;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the routes that require a session, before their handler runs. */
    operatorId: string;
  }
}
