import * as z from 'zod/mini';
import { languageSchema } from './languages.ts';

// Apart from the account's other schemas: the navbar's language choice saves it on every page,
// and a module's schemas are all built where it is loaded (the first page, decision 0013).

/** What the account keeps for every device it signs in on: the language of the pages. */
export const preferencesSchema = z.strictObject({ language: languageSchema });
export type Preferences = z.infer<typeof preferencesSchema>;
