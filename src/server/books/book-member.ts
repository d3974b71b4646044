import type { FastifyRequest } from 'fastify';
import { bookOf } from '../auth/session.ts';

/**
 * Who does something in a book: the member (their id, and the e-mail that answers and the
 * activity log show) and the book it is done in. Repositories keep the book's rows under
 * `bookId` (their `owner_id` column) and name the member as the one who did it.
 */
export interface BookMember {
  id: string;
  email: string;
  bookId: string;
}

/** The signed-in member and the session's book, on a route that declared its action. */
export function memberOf(request: FastifyRequest): BookMember {
  return { id: request.operator.id, email: request.operator.email, bookId: bookOf(request).id };
}
