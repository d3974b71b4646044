// Gives the web app the browser's form of a shared module (the vitest web project too, so that
// its tests run what the browser runs). Only validation-texts.ts has one: on the server the
// shared schemas write English field messages (the API's `fieldErrors`), in the browser their
// codes, so that the English texts stay out of the first page (decision 0013).
import path from 'node:path';

const shared = path.resolve(import.meta.dirname, '../src/shared');
const IN_BROWSER = new Map([
  [path.join(shared, 'validation-texts.ts'), path.join(shared, 'validation-texts-in-browser.ts')],
]);
const NAMES = new Set([...IN_BROWSER.keys()].map((file) => path.basename(file)));

/** @returns {import('vite').Plugin} */
export function browserModules() {
  return {
    name: 'client-panel-browser-modules',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      // Only a specifier naming one of the modules is resolved twice.
      if (!importer || !NAMES.has(path.basename(source))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved && (IN_BROWSER.get(path.normalize(resolved.id)) ?? null);
    },
  };
}
