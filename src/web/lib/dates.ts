import { INTL_LOCALES, type Language } from '../../shared/languages.ts';
import { currentLanguage } from '../i18n/language.ts';

/** Today's date where the operator is, written YYYY-MM-DD (what date inputs hold). */
export function todayHere(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * One formatter per language and kind, made when first needed (making one is slow); the
 * chosen language's when called.
 */
export function perLanguage<Format>(make: (language: Language) => Format): () => Format {
  const made = new Map<Language, Format>();
  return () => {
    const language = currentLanguage();
    let format = made.get(language);
    if (!format) {
      format = make(language);
      made.set(language, format);
    }
    return format;
  };
}

// Hindi names the month in full ("25 नवंबर 2026"): its short forms ("नव॰") read as
// abbreviations few people use; English keeps the app's "5 Mar 2026".
const dayFormat = perLanguage(
  (language) =>
    new Intl.DateTimeFormat(INTL_LOCALES[language], {
      day: 'numeric',
      month: language === 'hi' ? 'long' : 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }),
);

/** A calendar date (YYYY-MM-DD) as people read it, in the chosen language: "5 Mar 2026". */
export function formatDay(on: string): string {
  return dayFormat().format(new Date(`${on}T00:00:00Z`));
}

const timeFormat = perLanguage((language) =>
  language === 'hi'
    ? new Intl.DateTimeFormat(INTL_LOCALES.hi, {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        // "शाम 5:44", not CLDR's Latin "5:44 pm" on a Hindi page.
        dayPeriod: 'short',
      })
    : new Intl.DateTimeFormat(INTL_LOCALES.en, { dateStyle: 'medium', timeStyle: 'short' }),
);

/**
 * An API time (ISO, UTC) as people read it, where the operator is: "5 Mar 2026, 4:30 pm",
 * "27 नवंबर 2026 को दोपहर 3:32 बजे".
 */
export function formatTime(iso: string): string {
  return timeFormat().format(new Date(iso));
}
