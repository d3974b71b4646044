/**
 * validation-texts.ts as the web app's build has it (scripts/browser-modules-plugin.mjs): no
 * English texts, so the shared schemas write each field message as its code (and values),
 * which the browser shows from the catalogue in the chosen language, loaded just after the
 * first paint (src/web/i18n/errors.ts). The English texts would cost the first page 2.6 KB
 * (decision 0013).
 */
export const SCHEMA_TEXTS: Readonly<Record<string, string>> | undefined = undefined;
