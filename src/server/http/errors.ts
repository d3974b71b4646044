import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiRefusalBody } from '../../shared/api-error.ts';
import type { ErrorCode } from '../../shared/error-messages.ts';
import {
  type MessageValues,
  type ValidationCode,
  validationCodeOf,
  validationMessage,
} from '../../shared/validation-messages.ts';
import { isDatabaseUnavailable, isDiskFull } from '../db/availability.ts';
import { closeWithoutReset } from './lingering-close.ts';
import { redactedUrl } from './log-redaction.ts';
import { refusalText } from './refusal-text.ts';

/** What a refusal says beside its code. */
export interface RefusalDetails {
  /** The values of the placeholders in the code's text ("at most {limit}"). */
  values?: MessageValues;
  /** The fields at fault, each with the code of its message (validation.json). */
  fields?: Record<string, ValidationCode>;
  /** The fields at fault with the messages a schema wrote (a zod parse's issues). */
  fieldErrors?: Record<string, string>;
  /** More of the answer beside the refusal (the client as it is now, the rows at fault). */
  extra?: Record<string, unknown>;
  /** Another library's own words (better-auth's), for a code that only names their kind. */
  message?: string;
}

/**
 * A refusal with a status and a stable code (docs/api.md, "Refusals"): its message is the
 * code's English text (src/shared/locales/en/errors.json), unless another library's words
 * pass through.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly details: RefusalDetails = {},
  ) {
    super(details.message ?? refusalText(code, details.values));
    this.name = 'HttpError';
  }

  /** The API's refusal body. */
  body(): ApiRefusalBody & Record<string, unknown> {
    const { values, fields, extra } = this.details;
    const body: ApiRefusalBody & Record<string, unknown> = {
      message: this.message,
      code: this.code,
    };
    if (values) body.values = values;
    const fieldErrors: Record<string, string> = { ...this.details.fieldErrors };
    for (const [field, code] of Object.entries(fields ?? {})) {
      fieldErrors[field] = validationMessage(code, values);
    }
    if (Object.keys(fieldErrors).length > 0) {
      body.fieldErrors = fieldErrors;
      body.fieldCodes = fieldCodesOf(fieldErrors);
    }
    return { ...body, ...extra };
  }
}

/**
 * A refusal whose one field is at fault for the same reason, worded alike (its code is in
 * both catalogues): "This is not your current password" under `currentPassword`.
 */
export function fieldRefusal(
  statusCode: number,
  code: ErrorCode & ValidationCode,
  field: string,
  values?: MessageValues,
): HttpError {
  return new HttpError(statusCode, code, { fields: { [field]: code }, ...(values && { values }) });
}

/** A body that a schema refused, with its fields' messages: 400 `validation`. */
export function validationRefusal(fieldErrors: Record<string, string>): HttpError {
  return new HttpError(400, 'validation', { fieldErrors });
}

/**
 * The code of each field message: the shared schemas' own (validation.json), or `invalid` for
 * zod's built-in words ("Invalid input: expected string, received number").
 */
export function fieldCodesOf(fieldErrors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fieldErrors).map(([field, message]) => [
      field,
      validationCodeOf(message) ?? 'invalid',
    ]),
  );
}

/** The generic code of a status, for a refusal whose words are another library's. */
export function codeOfStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'bad-request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not-found';
    case 409:
      return 'conflict';
    case 414:
      return 'uri-too-long';
    case 429:
      return 'rate-limited';
    default:
      return 'request-refused';
  }
}

// Fastify's own refusals of a body, in our words.
const CODES_BY_FASTIFY_CODE: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'not-json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'empty-body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid-json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body-too-large',
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

function refuse(reply: FastifyReply, refusal: HttpError): FastifyReply {
  return reply.status(refusal.statusCode).send(refusal.body());
}

/** A 4xx of Fastify's own (a body it could not read, a route's constraint), in our shape. */
function fastifyRefusal(error: FastifyError, status: number, bodyLimit: number): HttpError {
  const code = error.code ? CODES_BY_FASTIFY_CODE[error.code] : undefined;
  if (code === 'body-too-large') {
    return new HttpError(status, code, { values: { limit: sizeText(bodyLimit) } });
  }
  if (code) return new HttpError(status, code);
  return new HttpError(status, codeOfStatus(status), { message: error.message });
}

/** Answers a path the router could not read, where an area has its own answer for it. */
export type UnreadablePathAnswer = (request: FastifyRequest, reply: FastifyReply) => boolean;

/**
 * The router's own refusals, before any route or hook (a path that is not a valid URL, a path
 * parameter over its length), in the one shape — unless `unreadable` answers the path (a link
 * that cannot be read is a link not valid, as the statement pages say). Fastify's words pass
 * through, but never the path itself (a 414's is thousands of characters).
 */
export function answerFrameworkError(unreadable: UnreadablePathAnswer) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const status = error.statusCode ?? 500;
    if (status < 400 || status >= 500) {
      request.log.error({ err: error }, 'the router failed');
      refuse(reply, new HttpError(500, 'server-error'));
      return;
    }
    if (unreadable(request, reply)) return;
    if (status === 414) {
      refuse(reply, new HttpError(414, 'uri-too-long'));
      return;
    }
    refuse(reply, fastifyRefusal(error, status, request.routeOptions.bodyLimit ?? 0));
  };
}

/**
 * One shape for every refusal: { message, code, values?, fieldErrors?, fieldCodes? }; a 5xx
 * never shows internals.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | HttpError>((error, request, reply) => {
    if (error instanceof HttpError) return refuse(reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      // No body at all (and so no content type): the same refusal as an empty JSON body.
      if (error.validationContext === 'body' && request.body == null) {
        return refuse(reply, new HttpError(400, 'empty-body'));
      }
      return refuse(reply, validationRefusal(fieldErrorsFromValidation(error)));
    }
    if (isDiskFull(error)) {
      // 507 Insufficient Storage: the write was refused whole, and retrying will not help
      // until someone frees space (docs/decisions/0021-full-disk-and-backups.md). Logged as
      // an error, not a warning: someone has to act.
      request.log.error(
        { err: { message: error.message } },
        'the disk is full: a write was refused',
      );
      return refuse(reply, new HttpError(507, 'disk-full'));
    }
    if (request.raw.readableAborted) {
      // The body stopped short and the connection closed: its ECONNRESET is the client's, not
      // the database's. Nothing was done; the client is gone or hears a 400.
      request.log.info('the client closed the connection before its request arrived whole');
      return refuse(reply, new HttpError(400, 'malformed-request'));
    }
    if (isDatabaseUnavailable(error)) {
      // Expected while the database restarts: a short line, not a stack per request.
      request.log.warn({ err: { message: error.message } }, 'the database is unavailable');
      reply.header('retry-after', '5');
      return refuse(reply, new HttpError(503, 'database-unavailable'));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // A body refused before it all arrived (over its limit): the client is still sending it.
      if (!request.raw.complete) closeWithoutReset(request.raw.socket);
      return refuse(reply, fastifyRefusal(error, status, request.routeOptions.bodyLimit));
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
    return refuse(reply, new HttpError(500, 'server-error'));
  });
}
