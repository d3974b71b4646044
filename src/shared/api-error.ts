import * as z from 'zod/mini';

/**
 * The body of every refusal the API sends: `message` in English for API clients, `code` a
 * stable name for it ("validation", "not-found", "registrations-closed"…) that the web app shows
 * in the operator's language (src/shared/locales/<lang>/errors.json), with `values` for the
 * placeholders of its text when it has any; `fieldCodes` likewise beside each of `fieldErrors`
 * (validation.json). The web app reads refusals with this schema, which also takes a body
 * without a code (a proxy's); the server's answers always carry one (apiRefusalSchema).
 */
export const apiErrorSchema = z.object({
  message: z.string(),
  code: z.optional(z.string()),
  values: z.optional(z.record(z.string(), z.union([z.string(), z.number()]))),
  fieldErrors: z.optional(z.record(z.string(), z.string())),
  fieldCodes: z.optional(z.record(z.string(), z.string())),
});
export type ApiErrorBody = z.infer<typeof apiErrorSchema>;

/** A refusal as the server sends it: always with its code (docs/api.md, "Refusals"). */
export const apiRefusalSchema = z.extend(apiErrorSchema, { code: z.string() });
export type ApiRefusalBody = z.infer<typeof apiRefusalSchema>;

/** First message per field, keyed by the dotted path ("_" for the whole body). */
export function fieldErrorsFromIssues(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || '_';
    fieldErrors[key] ??= issue.message;
  }
  return fieldErrors;
}
