import type { Plugin } from 'vite';

/** Puts the browser's form of a shared module in its place (browser-modules-plugin.mjs). */
export function browserModules(): Plugin;
