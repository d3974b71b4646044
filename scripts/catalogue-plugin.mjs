// Compiles the translation catalogues (src/web/locales, src/shared/locales: ICU MessageFormat
// in JSON) into Lingui's compiled form when the web app imports one as `…/<lang>/<area>.json?catalogue`,
// so that the browser never downloads a message parser (docs/decisions/0037-i18n-library.md).
// A plain `import … from '….json'` (the server, the English validation texts) is left alone.
import { readFile } from 'node:fs/promises';
import { compileMessage } from '@lingui/message-utils/compileMessage';

const SUFFIX = '?catalogue';
// A virtual module whose id does not end in .json: Vite's JSON plugin would take the compiled
// module for JSON.
const PREFIX = '\0catalogue:';
const MODULE_SUFFIX = '.catalogue.js';

/** @returns {import('vite').Plugin} */
export function catalogues() {
  return {
    name: 'client-panel-catalogues',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!source.endsWith(SUFFIX)) return null;
      const resolved = await this.resolve(source.slice(0, -SUFFIX.length), importer, {
        skipSelf: true,
      });
      return resolved ? `${PREFIX}${resolved.id}${MODULE_SUFFIX}` : null;
    },
    async load(id) {
      if (!id.startsWith(PREFIX) || !id.endsWith(MODULE_SUFFIX)) return null;
      const file = id.slice(PREFIX.length, -MODULE_SUFFIX.length);
      this.addWatchFile(file);
      const messages = JSON.parse(await readFile(file, 'utf8'));
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, message]) => [key, compileMessage(String(message))]),
      );
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(compiled))});`;
    },
  };
}
