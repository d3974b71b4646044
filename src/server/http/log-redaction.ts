import type { FastifyRequest } from 'fastify';

// A statement link's token, and an invitation's, is the whole of its secret, and it travels in
// the path: the page's (`/s/<token>`, `/invite/<token>`) and the API's.
const TOKEN_PATHS = /^\/(s|api\/shared|invite|api\/invites)\/[^/?#]+/;

/**
 * A URL as a log line may show it: a statement link's or an invitation's path with the token
 * replaced (`/s/[token]`, `/api/invites/[token]/accept`), so that no log holds a working link.
 */
export function redactedUrl(url: string): string {
  return url.replace(TOKEN_PATHS, (_path, prefix: string) => `/${prefix}/[token]`);
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
