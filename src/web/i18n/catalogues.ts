import type { Messages } from '@lingui/core';
import type { Language } from '../../shared/languages.ts';

/*
 * Every catalogue the web app loads, by language and area. An area is one JSON file per
 * language (src/web/locales/<lang>/<area>.json, or src/shared/locales for the texts the server
 * uses too), compiled for Lingui at build time (scripts/catalogue-plugin.mjs). Every page needs
 * the `public` part before its first paint and `messages` soon after (nothing is refused before
 * the first click); the sign-in pages load `auth` with their code, the signed-in pages `app`
 * with the signed-in part and the settings page `settings` with its own, so that each page
 * downloads its own words, and only in the chosen language.
 */
type Load = () => Promise<{ default: Messages }>;

export const PARTS = {
  public: ['shell'],
  // What a refusal or a field message says: fetched right after the first paint, not before.
  messages: ['validation', 'errors'],
  // The sign-in pages' own words (and the password rules the settings page repeats).
  auth: ['auth'],
  app: ['clients', 'ledger', 'collect'],
  // Only the settings page says these: they load with it, not with every signed-in page.
  settings: ['settings', 'auth', 'books'],
  // Shared books (issue 23): the navbar's book menu and the members, invitation and activity
  // screens load them beside their own code, after the page's first paint.
  books: ['books'],
} as const;
export type Part = keyof typeof PARTS;
export type Area = (typeof PARTS)[Part][number];

// Written out (not a glob) so that each file is its own chunk, fetched only when asked for.
export const catalogues: Record<Language, Record<Area, Load>> = {
  en: {
    shell: () => import('../locales/en/shell.json?catalogue'),
    auth: () => import('../locales/en/auth.json?catalogue'),
    validation: () => import('../../shared/locales/en/validation.json?catalogue'),
    errors: () => import('../../shared/locales/en/errors.json?catalogue'),
    clients: () => import('../locales/en/clients.json?catalogue'),
    ledger: () => import('../locales/en/ledger.json?catalogue'),
    collect: () => import('../locales/en/collect.json?catalogue'),
    settings: () => import('../locales/en/settings.json?catalogue'),
    books: () => import('../locales/en/books.json?catalogue'),
  },
  hi: {
    shell: () => import('../locales/hi/shell.json?catalogue'),
    auth: () => import('../locales/hi/auth.json?catalogue'),
    validation: () => import('../../shared/locales/hi/validation.json?catalogue'),
    errors: () => import('../../shared/locales/hi/errors.json?catalogue'),
    clients: () => import('../locales/hi/clients.json?catalogue'),
    ledger: () => import('../locales/hi/ledger.json?catalogue'),
    collect: () => import('../locales/hi/collect.json?catalogue'),
    settings: () => import('../locales/hi/settings.json?catalogue'),
    books: () => import('../locales/hi/books.json?catalogue'),
  },
};

/**
 * Every message id the web app may ask for, from the English catalogues (the source): a key
 * missing there is a type error; one missing from Hindi fails the catalogue check
 * (catalogues.test.ts).
 */
type Catalogue<File> = File extends { default: infer Messages } ? Messages : never;
type AllMessages = Catalogue<typeof import('../locales/en/shell.json')> &
  Catalogue<typeof import('../locales/en/auth.json')> &
  Catalogue<typeof import('../../shared/locales/en/validation.json')> &
  Catalogue<typeof import('../../shared/locales/en/errors.json')> &
  Catalogue<typeof import('../locales/en/clients.json')> &
  Catalogue<typeof import('../locales/en/ledger.json')> &
  Catalogue<typeof import('../locales/en/collect.json')> &
  Catalogue<typeof import('../locales/en/settings.json')> &
  Catalogue<typeof import('../locales/en/books.json')>;
export type MessageId = keyof AllMessages & string;
