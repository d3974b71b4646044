import {
  INTL_LOCALES,
  isLanguage,
  LANGUAGES,
  type Language,
  languageFromAcceptLanguage,
} from '../../shared/languages.ts';
import { type StatementTexts, statementTexts } from '../i18n/statement-texts.ts';

/** What a statement page needs to speak one language: its words, its dates. */
export interface PageLanguage {
  language: Language;
  t: StatementTexts;
  /** A calendar date (YYYY-MM-DD): "5 Mar 2026", "25 नवंबर 2026". */
  day(on: string): string;
  /** A moment (ISO) where the panel is: "5 Mar 2026, 4:30 pm", "25 नवंबर 2026 को शाम 4:30 बजे". */
  time(iso: string): string;
}

/**
 * Each language's words and date formats, made once: building a formatter costs more than a
 * page's other work. Hindi names the month in full ("नवंबर"; its short forms read as
 * abbreviations few people use), as the web app does (src/web/lib/dates.ts).
 */
export function pageLanguages(timeZone: string): Record<Language, PageLanguage> {
  let languages = madeLanguages.get(timeZone);
  if (!languages) {
    languages = makePageLanguages(timeZone);
    madeLanguages.set(timeZone, languages);
  }
  return languages;
}

/** Made once per time zone: the routes and the answer to unreadable links share them. */
const madeLanguages = new Map<string, Record<Language, PageLanguage>>();

function makePageLanguages(timeZone: string): Record<Language, PageLanguage> {
  const made = LANGUAGES.map((language): [Language, PageLanguage] => {
    const locale = INTL_LOCALES[language];
    const month = language === 'hi' ? 'long' : 'short';
    const dayFormat = new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month,
      year: 'numeric',
      timeZone: 'UTC',
    });
    const timeFormat =
      language === 'hi'
        ? new Intl.DateTimeFormat(locale, {
            day: 'numeric',
            month,
            year: 'numeric',
            hour: 'numeric',
            minute: '2-digit',
            // "शाम 4:30", not CLDR's Latin "4:30 pm" on a Hindi page.
            dayPeriod: 'short',
            timeZone,
          })
        : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
    return [
      language,
      {
        language,
        t: statementTexts(language),
        day: (on) => dayFormat.format(new Date(`${on}T00:00:00Z`)),
        time: (iso) => timeFormat.format(new Date(iso)),
      },
    ];
  });
  return Object.fromEntries(made) as Record<Language, PageLanguage>;
}

/** The language a page's address asks for (`?lang=hi`), if it names one of the panel's. */
export function askedLanguage(query: unknown): Language | undefined {
  const lang = (query as { lang?: unknown } | null)?.lang;
  return isLanguage(lang) ? lang : undefined;
}

/**
 * The language of a page that belongs to no client (a link that is not valid): the one its
 * address asks for, else the browser's.
 */
export function visitorLanguage(query: unknown, acceptLanguage: string | undefined): Language {
  return askedLanguage(query) ?? languageFromAcceptLanguage(acceptLanguage);
}
