import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { changeLanguage, loadCatalogues, startLanguage } from './i18n/language.ts';

// The pages' words, in English unless a test chooses Hindi (it is put back after each test).
await startLanguage('en');
await loadCatalogues('messages');
await loadCatalogues('auth');
await loadCatalogues('app');
await loadCatalogues('settings');

// findBy… and waitFor give up after 1 s by default: too soon on a shared 2-core machine
// under load, where a lazily loaded page can take longer to appear. A real failure still
// fails, just later.
configure({ asyncUtilTimeout: 5_000 });

afterEach(async () => {
  cleanup();
  window.localStorage.clear();
  await changeLanguage('en', { remember: false });
});
