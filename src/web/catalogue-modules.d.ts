// A translation catalogue as the web app imports it: compiled for Lingui by
// scripts/catalogue-plugin.mjs.
declare module '*.json?catalogue' {
  import type { Messages } from '@lingui/core';

  const messages: Messages;
  export default messages;
}
