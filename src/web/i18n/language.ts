import { setupI18n } from '@lingui/core';
import {
  DEFAULT_LANGUAGE,
  INTL_LOCALES,
  isLanguage,
  type Language,
} from '../../shared/languages.ts';
import { learnEnglishTexts } from '../../shared/validation-messages.ts';
import { catalogues, PARTS, type Part } from './catalogues.ts';

/** The one Lingui instance: what every text on every page is looked up in. */
export const i18n = setupI18n();

export const LANGUAGE_STORAGE_KEY = 'language';

const loaded = new Set<string>();
/** The parts this tab has needed so far: a change of language loads them all, then switches. */
const needed = new Set<Part>(['public']);
const listeners = new Set<() => void>();
let current: Language = DEFAULT_LANGUAGE;
/** Changes start in order; the last one asked for wins even when an earlier one loads later. */
let latestChange = 0;

let englishFieldMessages: Promise<void> | undefined;

/**
 * The server's field messages are English (its `fieldErrors`): their texts, fetched once with
 * the refusals' catalogues, let a message read back to its code and values in any language
 * (the browser's schemas write codes, validation-texts-in-browser.ts).
 */
function readEnglishFieldMessages(): Promise<void> {
  englishFieldMessages ??= import('../../shared/locales/en/validation.json').then(
    (english) => learnEnglishTexts(english.default),
    (error: unknown) => {
      englishFieldMessages = undefined;
      throw error;
    },
  );
  return englishFieldMessages;
}

async function loadPart(language: Language, part: Part): Promise<void> {
  const key = `${language}:${part}`;
  if (loaded.has(key)) return;
  const [files] = await Promise.all([
    Promise.all(PARTS[part].map((area) => catalogues[language][area]())),
    part === 'messages' ? readEnglishFieldMessages() : undefined,
  ]);
  for (const file of files) i18n.load(language, file.default);
  loaded.add(key);
}

function storedLanguage(): Language | undefined {
  try {
    const stored = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

function remember(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage may be full or disabled: the choice then lasts as long as the tab.
  }
}

/**
 * The language a tab starts in: the one chosen in this browser before, else the one the server
 * wrote into the page from the browser's `Accept-Language` (`<html lang>`), else English.
 */
export function initialLanguage(): Language {
  const fromPage = document.documentElement.lang;
  return storedLanguage() ?? (isLanguage(fromPage) ? fromPage : DEFAULT_LANGUAGE);
}

function show(language: Language): void {
  // Formatted with the Indian locale ("1,23,456"), not the bare language ("123,456").
  i18n.activate(language, [INTL_LOCALES[language]]);
  current = language;
  document.documentElement.lang = language;
  for (const listener of listeners) listener();
}

/** Loads the first page's words in the starting language; the app renders once they are in. */
export async function startLanguage(language = initialLanguage()): Promise<void> {
  await loadPart(language, 'public');
  show(language);
  // Until these are in, a refusal would read in the server's English (errors.ts).
  loadCatalogues('messages').catch((error: unknown) =>
    console.error('The texts of refusals could not be loaded', error),
  );
}

/**
 * A part's words in the language shown (the signed-in pages' beside their code,
 * signed-in-loader.tsx; the settings page's with it, routes.tsx); a later change of language
 * loads them in the new one too.
 */
export async function loadCatalogues(part: Part): Promise<void> {
  needed.add(part);
  await loadPart(current, part);
}

/**
 * Switches every page to `language` without a reload, once its catalogues are in. `remember`
 * keeps the choice in this browser (the account keeps it too when someone is signed in: the
 * caller saves it there).
 */
export async function changeLanguage(
  language: Language,
  options: { remember: boolean } = { remember: true },
): Promise<void> {
  const change = ++latestChange;
  if (options.remember) remember(language);
  await Promise.all([...needed].map((part) => loadPart(language, part)));
  if (change !== latestChange || language === current) return;
  show(language);
}

export function currentLanguage(): Language {
  return current;
}

export function subscribeToLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
