import type { Plugin } from 'vite';

/** Compiles `…/<lang>/<area>.json?catalogue` imports for Lingui (catalogue-plugin.mjs). */
export function catalogues(): Plugin;
