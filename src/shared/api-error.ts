import type { z } from 'zod';

/** The body of every refusal the API sends. */
export interface ApiErrorBody {
  message: string;
  fieldErrors?: Record<string, string>;
}

/** First message per field, keyed by the dotted path ("" for the whole body). */
export function fieldErrorsFromIssues(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fieldErrors[key] ??= issue.message;
  }
  return fieldErrors;
}
