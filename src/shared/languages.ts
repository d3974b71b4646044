import * as z from 'zod/mini';
import { validationMessage } from './validation-messages.ts';

/** The languages the panel speaks: English (the original's texts) and Hindi. */
export const LANGUAGES = ['en', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const languageSchema = z.enum(LANGUAGES, { error: validationMessage('language.invalid') });

/** Each language's name in itself, as the language menus show it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', hi: 'हिन्दी' };

/** The locale Intl formats with: Indian English and Hindi (both group digits the Indian way). */
export const INTL_LOCALES: Record<Language, string> = { en: 'en-IN', hi: 'hi-IN' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** A language as stored: the app writes only LANGUAGES, and anything else reads as English. */
export function languageOrDefault(stored: string | null | undefined): Language {
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

/**
 * The panel's language that an `Accept-Language` header prefers most ("hi-IN,hi;q=0.9,en;q=0.8"
 * → hi), or English when it names neither. A weight of 0 means "not this one".
 */
export function languageFromAcceptLanguage(header: string | undefined): Language {
  let best: { language: Language; weight: number } | undefined;
  for (const part of (header ?? '').split(',')) {
    const [tag = '', ...parameters] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (!isLanguage(primary)) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (!Number.isFinite(weight) || weight <= 0) continue;
    if (!best || weight > best.weight) best = { language: primary, weight };
  }
  return best?.language ?? DEFAULT_LANGUAGE;
}
