import type * as z from 'zod/mini';
import { apiErrorSchema } from '../../shared/api-error.ts';
import { BOOK_HEADER } from '../../shared/book-roles.ts';
import { UNATTENDED_HEADER } from '../../shared/session-use.ts';
import { isUnattended } from './attention.ts';

/** A refusal or failure from the API, with the server's words when it sent any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
    readonly body: unknown = undefined,
    /** The refusal's stable name (the server's `code`, or the app's own for a failure). */
    readonly code: string = codeOfStatus(status),
    readonly fieldCodes: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A failure the server did not name: the network (0), too many requests, the server. */
function codeOfStatus(status: number): string {
  if (status === 0) return 'network';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  return 'request-failed';
}

/** A refusal (4xx) will not change on retry; a failed network or server may, twice. */
export function worthRetrying(failures: number, error: unknown): boolean {
  return !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2;
}

/*
 * The English `message` of the failures the app names itself (codes `network`,
 * `unexpected-answer`, `rate-limited`, `server`, `request-failed`): the pages show the
 * catalogue's text for the code instead (errorText, src/shared/locales/<lang>/errors.json).
 */
export const NETWORK_ERROR_MESSAGE =
  // i18n-exempt: English message of the code `network`; pages show errorText
  'Could not reach the server. Check your connection and try again.';
export const UNEXPECTED_ANSWER_MESSAGE =
  // i18n-exempt: English message of the code `unexpected-answer`; pages show errorText
  'The server sent an answer this page does not understand. Reload the page and try again.';

function describeFailure(status: number): string {
  // i18n-exempt: English message of the code `rate-limited`; pages show errorText
  if (status === 429) return 'Too many attempts. Please wait and try again.';
  // i18n-exempt: English message of the code `server`; pages show errorText
  if (status >= 500) return 'The server failed to answer. Please try again.';
  // i18n-exempt: English message of the code `request-failed`; pages show errorText
  return `The request failed (HTTP ${status})`;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The book this page shows (issue 23): sent with every request, see workInBook. */
let workingBook: string | undefined;

/**
 * From now on this page's requests are for this book: the server refuses one meant for another
 * book than the session's (409 `book-changed`) rather than doing it in the wrong book.
 */
export function workInBook(id: string | undefined): void {
  workingBook = id;
}

/**
 * What every request of this page says beside its own: that it wants JSON, the book it is
 * for (see workInBook), and whether nobody is at the page (see isUnattended).
 */
export function pageHeaders(): Record<string, string> {
  return {
    accept: 'application/json',
    ...(isUnattended() ? { [UNATTENDED_HEADER]: '1' } : {}),
    ...(workingBook === undefined ? {} : { [BOOK_HEADER]: workingBook }),
  };
}

/**
 * This page's requests the server has not answered yet. Signing out waits for them: one the
 * server read after the session ended would come back refused (401), in the console of a page
 * that has gone.
 */
const unanswered = new Set<Promise<unknown>>();

/** Counts a request among those on their way until its answer comes (see requestsAnswered). */
export function awaitingAnswer<T>(request: Promise<T>): Promise<T> {
  unanswered.add(request);
  const answered = () => unanswered.delete(request);
  request.then(answered, answered);
  return request;
}

/**
 * Resolves once every request sent so far (and any sent meanwhile) has its answer, or after
 * `limitMs` should one hang: a sign-out is not held up for good by a server that never answers.
 */
export async function requestsAnswered(limitMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<'limit'>((resolve) => {
    timer = setTimeout(() => resolve('limit'), limitMs);
  });
  try {
    while (unanswered.size > 0) {
      const outcome = await Promise.race([Promise.allSettled([...unanswered]), limit]);
      if (outcome === 'limit') return;
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends a request and checks the answer against the shared schema it must match: the rest
 * of the app only ever sees data of the shape it was promised.
 */
export async function apiRequest<T>(
  method: string,
  path: string,
  schema: z.ZodMiniType<T>,
  body?: unknown,
  { keepalive = false }: { keepalive?: boolean } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await awaitingAnswer(
      fetch(path, {
        method,
        // A request that must reach the server even if the page is left meanwhile.
        keepalive,
        credentials: 'same-origin',
        headers: {
          ...pageHeaders(),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  } catch {
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  return answerOf(response.status, response.status === 204 ? '' : await response.text(), schema);
}

/** An answer checked against its schema; a refusal becomes an ApiError with the server's words. */
export function answerOf<T>(status: number, text: string, schema: z.ZodMiniType<T>): T {
  const parsed = parseJson(text);
  if (status < 200 || status > 299) {
    const refusal = apiErrorSchema.safeParse(parsed);
    throw new ApiError(
      status,
      refusal.success && refusal.data.message ? refusal.data.message : describeFailure(status),
      refusal.success ? (refusal.data.fieldErrors ?? {}) : {},
      parsed,
      (refusal.success && refusal.data.code) || codeOfStatus(status),
      refusal.success ? (refusal.data.fieldCodes ?? {}) : {},
    );
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) {
    throw new ApiError(status, UNEXPECTED_ANSWER_MESSAGE, {}, parsed, 'unexpected-answer');
  }
  return checked.data;
}

// Methods rather than generic arrow functions (`<T>(…) =>`), which the catalogue check, reading
// every file as TSX, would take for markup.
export const api = {
  get<T>(path: string, schema: z.ZodMiniType<T>) {
    return apiRequest('GET', path, schema);
  },
  post<T>(path: string, schema: z.ZodMiniType<T>, body: unknown = {}) {
    return apiRequest('POST', path, schema, body);
  },
  put<T>(path: string, schema: z.ZodMiniType<T>, body: unknown) {
    return apiRequest('PUT', path, schema, body);
  },
  patch<T>(path: string, schema: z.ZodMiniType<T>, body: unknown) {
    return apiRequest('PATCH', path, schema, body);
  },
  delete<T>(path: string, schema: z.ZodMiniType<T>) {
    return apiRequest('DELETE', path, schema);
  },
};
