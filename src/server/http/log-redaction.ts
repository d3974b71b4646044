import type { FastifyRequest } from 'fastify';

// A statement link's token is the whole of its secret, and it travels in the path.
const TOKEN_PATHS = /^\/(?:s|api\/shared)\/[^/?#]+/;

/**
 * A URL as a log line may show it: a statement link's path (`/s/<token>`, and the API's
 * `/api/shared/<token>`) with the token replaced, so that no log holds a working link.
 */
export function redactedUrl(url: string): string {
  return url.replace(TOKEN_PATHS, (path) =>
    path.startsWith('/s/') ? '/s/[token]' : '/api/shared/[token]',
  );
}

/** Fastify's own request serializer, with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
