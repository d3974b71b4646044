import type { ApiErrorBody } from '../../shared/api-error.ts';

/** A refusal or failure from the API, with the server's words when it sent any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: Record<string, string> = {},
    readonly body: unknown = undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const NETWORK_ERROR_MESSAGE =
  'Could not reach the server. Check your connection and try again.';

function describeFailure(status: number): string {
  if (status === 429) return 'Too many attempts. Please wait and try again.';
  if (status >= 500) return 'The server failed to answer. Please try again.';
  return `The request failed (HTTP ${status})`;
}

export async function apiRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, NETWORK_ERROR_MESSAGE);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  if (!response.ok) {
    const error = (parsed ?? {}) as Partial<ApiErrorBody>;
    throw new ApiError(
      response.status,
      typeof error.message === 'string' && error.message
        ? error.message
        : describeFailure(response.status),
      error.fieldErrors ?? {},
      parsed,
    );
  }
  return parsed as T;
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => apiRequest<T>('POST', path, body),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, body),
  delete: <T>(path: string) => apiRequest<T>('DELETE', path),
};
