import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * Answers are compressed when the browser accepts it: Brotli at a quality that costs no more
 * than gzip does (the default, 11, takes tens of milliseconds for a page of clients), else
 * gzip. Quality 3 rather than 4: on a page of 100 clients (42 KB) 146 µs against 189 for 1%
 * more bytes (4,713 against 4,679; gzip 6: 5,704 B, 166 µs), and 37 against 67 µs on a page of
 * 20 (decision 0034, seventh pass). Built files are compressed once at build time and served
 * as they are.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 3 } },
    zlibOptions: { level: 6 },
  });
}

/**
 * For answers of megabytes (a year's statement of a busy client): the fastest levels, in one
 * call rather than streamed in 16 KB pieces. On 3 MB of JSON, Brotli at quality 1 takes 15 ms
 * where quality 4 takes 45, for 9% more bytes; streamed, it took twice as long again.
 */
export const largeAnswerCompression = {
  threshold: 1024,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
  zlibOptions: { level: 1 },
  syncThreshold: 16 * 1024 * 1024,
} satisfies RouteOptions['compress'];

/**
 * For a long stream of text (an export of 100,000 clients, 6 MB): the fastest levels, which
 * keep compression from being most of the export's time.
 */
export const streamCompression = {
  threshold: 1024,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } },
  zlibOptions: { level: 1 },
} satisfies RouteOptions['compress'];
