import * as z from 'zod/mini';

/**
 * The body of every refusal the API sends: `message` in English for API clients, `code` a
 * stable name for it ("validation", "not-found", "registrations-closed"…) that the web app shows
 * in the operator's language; `fieldCodes` likewise beside each of `fieldErrors`.
 */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.optional(z.string()),
  fieldErrors: z.optional(z.record(z.string(), z.string())),
  fieldCodes: z.optional(z.record(z.string(), z.string())),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** First message per field, keyed by the dotted path ("_" for the whole body). */
export function fieldErrorsFromIssues(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fieldErrors[key] ??= issue.message;
  }
  return fieldErrors;
}
