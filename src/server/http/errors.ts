import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '../../shared/api-error.ts';
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  DISK_FULL_MESSAGE,
  isDatabaseUnavailable,
  isDiskFull,
} from '../db/availability.ts';
import { redactedUrl } from './log-redaction.ts';

/** A refusal with a status and a message meant for the person using the app. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly fieldErrors?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

const MESSAGES_BY_CODE: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
};

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

function fieldErrorsFromValidation(error: FastifyError): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  if (!hasZodFastifySchemaValidationErrors(error)) return fieldErrors;
  for (const issue of error.validation) {
    const key = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || '_';
    fieldErrors[key] ??= issue.message ?? 'Invalid value';
  }
  return fieldErrors;
}

/** One shape for every refusal: { message, fieldErrors? }; a 5xx never shows internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | HttpError>((error, request, reply) => {
    if (error instanceof HttpError) {
      const body: ApiErrorBody & Record<string, unknown> = { message: error.message };
      if (error.fieldErrors) body.fieldErrors = error.fieldErrors;
      return reply.status(error.statusCode).send({ ...body, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const body: ApiErrorBody = {
        message: 'Some fields are not valid',
        fieldErrors: fieldErrorsFromValidation(error),
      };
      return reply.status(400).send(body);
    }
    if (isDiskFull(error)) {
      // 507 Insufficient Storage: the write was refused whole, and retrying will not help
      // until someone frees space (docs/decisions/0021-full-disk-and-backups.md). Logged as
      // an error, not a warning: someone has to act.
      request.log.error(
        { err: { message: error.message } },
        'the disk is full: a write was refused',
      );
      return reply.status(507).send({ message: DISK_FULL_MESSAGE } satisfies ApiErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      // Expected while the database restarts: a short line, not a stack per request.
      request.log.warn({ err: { message: error.message } }, 'the database is unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE } satisfies ApiErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? `Request body is too large (at most ${sizeText(request.routeOptions.bodyLimit)})`
          : (error.code && MESSAGES_BY_CODE[error.code]) || error.message;
      return reply.status(status).send({ message } satisfies ApiErrorBody);
    }
    // What the request carried helps to find the cause; secrets in it are redacted (app.ts).
    request.log.error(
      {
        err: error,
        request: {
          method: request.method,
          url: redactedUrl(request.url),
          headers: request.headers,
          body: request.body,
        },
      },
      'request failed',
    );
    return reply.status(500).send({ message: 'Something went wrong on the server' });
  });
}
