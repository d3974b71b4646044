import { I18nProvider } from '@lingui/react';
import { Fragment, type ReactNode } from 'react';
import { i18n } from './language.ts';
import { useLanguage } from './use-language.ts';

/** Gives every component its texts (useT, T). */
export function LanguageProvider({ children }: { children: ReactNode }) {
  return <I18nProvider i18n={i18n}>{children}</I18nProvider>;
}

/**
 * A change of language draws the pages again from the top (the key), so that no text worked
 * out before the change (a date, a label kept in state) stays behind; the query cache keeps the
 * data, the URL keeps the place, and the flash messages above stay.
 */
export function RedrawOnLanguageChange({ children }: { children: ReactNode }) {
  const language = useLanguage();
  return <Fragment key={language}>{children}</Fragment>;
}
