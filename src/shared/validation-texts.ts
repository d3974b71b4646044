import english from './locales/en/validation.json' with { type: 'json' };

/** A field message's id in the catalogues: `validation.<code>`. */
export type ValidationId = keyof typeof english;

/**
 * The texts the shared schemas write into their field messages: English, which the API's
 * `fieldErrors` carry word for word. The web app's build puts validation-texts-in-browser.ts in
 * this module's place (scripts/browser-modules-plugin.mjs), so that the English texts stay
 * out of the first page (decision 0013): there the schemas write codes.
 */
export const SCHEMA_TEXTS: Readonly<Record<string, string>> | undefined = english;
