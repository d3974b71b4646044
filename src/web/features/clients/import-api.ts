import type * as z from 'zod/mini';
import {
  type ImportField,
  type ImportPreview,
  type ImportResult,
  importPreviewSchema,
  importResultSchema,
} from '../../../shared/client-csv-import.ts';
import { apiPaths } from '../../../shared/paths.ts';
import {
  ApiError,
  answerOf,
  awaitingAnswer,
  NETWORK_ERROR_MESSAGE,
  pageHeaders,
} from '../../lib/api-client.ts';

/**
 * Sends a file as the body of a POST, reporting how much of it has gone (fetch cannot tell
 * upload progress; XMLHttpRequest can).
 */
function apiUpload<T>(
  path: string,
  schema: z.ZodMiniType<T>,
  file: Blob,
  contentType: string,
  onProgress: (sentFraction: number) => void,
): Promise<T> {
  const upload = new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    // As every request of the page: above all the book it is for, so that a file chosen in
    // one book is never stored in another the session has moved to meanwhile.
    for (const [name, value] of Object.entries(pageHeaders())) {
      request.setRequestHeader(name, value);
    }
    request.setRequestHeader('content-type', contentType);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onerror = () => reject(new ApiError(0, NETWORK_ERROR_MESSAGE));
    request.onload = () => {
      try {
        resolve(answerOf(request.status, request.responseText, schema));
      } catch (error) {
        reject(error);
      }
    };
    request.send(file);
  });
  return awaitingAnswer(upload);
}

export interface ImportChoices {
  /** The field of each column, when the operator chose them by hand. */
  columns?: readonly (ImportField | null)[] | undefined;
  skipDuplicates?: boolean;
}

function importUrl(dryRun: boolean, { columns, skipDuplicates }: ImportChoices): string {
  const search = new URLSearchParams({ dryRun: String(dryRun) });
  if (!dryRun) search.set('skipDuplicates', String(skipDuplicates ?? false));
  if (columns) search.set('columns', columns.map((field) => field ?? '').join(','));
  return `${apiPaths.clientsImport}?${search}`;
}

/** What importing the file would do; stores nothing. */
export function previewImport(
  file: Blob,
  choices: ImportChoices,
  onProgress: (sent: number) => void,
): Promise<ImportPreview> {
  return apiUpload(importUrl(true, choices), importPreviewSchema, file, 'text/csv', onProgress);
}

/** Stores every client of the file, or none. */
export function importClients(
  file: Blob,
  choices: ImportChoices,
  onProgress: (sent: number) => void,
): Promise<ImportResult> {
  return apiUpload(importUrl(false, choices), importResultSchema, file, 'text/csv', onProgress);
}
