import type { FastifyRequest } from 'fastify';

/**
 * Long work (an export, an import) may leave its connection silent for longer than the idle
 * timeout while the database works: the request is in, and the server is the slow one. This
 * request's connection waits instead; its queries keep their own limit (db/deadline.ts), and
 * Node gives the connection its idle timeout back for the next request on it.
 */
export function allowLongSilence(request: FastifyRequest): void {
  request.raw.socket?.setTimeout?.(0);
}
