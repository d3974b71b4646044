import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ConnectionError, FastifyServerOptions } from 'fastify';
import { errorMessage } from '../../shared/error-messages.ts';
import { HttpError } from './errors.ts';

export const HEADERS_TOO_LARGE_MESSAGE = errorMessage('headers-too-large');
export const MALFORMED_REQUEST_MESSAGE = errorMessage('malformed-request');

/**
 * Writes a refusal in the API's error shape straight to a socket no Fastify reply owns, then
 * closes it, saying so (`Connection: close`): a keep-alive client must not send its next
 * request down it. A HEAD gets the headers only, as HTTP requires.
 */
export function refuseOnSocket(
  socket: Duplex,
  refusal: HttpError,
  { head = false }: { head?: boolean } = {},
): void {
  const status = refusal.statusCode;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(refusal.body());
  // After the answer is out: closing at once could cut it short.
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      (head ? '' : body),
  );
}

/**
 * Answers a request Node's parser refused before Fastify saw it (headers over 16 KiB, bytes
 * that are not HTTP, a request too slow to arrive). Fastify's own handler left out
 * `Connection: close` while closing the socket, so a keep-alive client lost its next request,
 * and it wrote a body after a HEAD's headers, read as the start of the next answer.
 */
export const answerClientError: NonNullable<FastifyServerOptions['clientErrorHandler']> = (
  error: ConnectionError,
  socket,
) => {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new HttpError(431, 'headers-too-large')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new HttpError(408, 'request-timeout')
        : new HttpError(400, 'malformed-request');
  // What the parser had read: a Buffer, whatever Fastify's types say.
  const raw: unknown = error.rawPacket;
  const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
  refuseOnSocket(socket, refusal, { head });
};
